// Types of strip-internals.mjs, for the TypeScript that imports it (its test).

/** The classes whose `@internal` members are not published. */
export declare const STRIPPED_CLASSES: readonly string[];

/** The declaration text without the internal members of the classes named; constructors made `private constructor();`. */
export declare function stripInternals(text: string, fileName: string, classes?: readonly string[]): string;
