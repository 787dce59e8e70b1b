import type { Application } from 'typedoc';

/** The group of each source file, first match wins: `[pattern, group]`, matched against the path from `src/`. */
export declare const GROUP_RULES: readonly (readonly [RegExp, string])[];
/** The groups in the order the reference shows them. */
export declare const GROUP_ORDER: readonly string[];
/** The group of a declaration of `src/<path>`, or `undefined` when no rule names it. */
export declare function groupOf(path: string): string | undefined;
/** Loads the plugin into TypeDoc. */
export declare function load(app: Application): void;
