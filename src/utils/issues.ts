/**
 * Problems found in a value, and how messages list them: plain data and text, with no
 * zod in it, so that an error class or a builder bundles without the schemas.
 * `schemas/issues.ts` turns zod's issues into these.
 */

/** One problem found in a value: where it is and what is wrong. */
export interface Issue {
  /** Keys and indices from the root of the value, e.g. `['traces', 0, 'messages', 1, 'role']`. */
  path: (string | number)[];
  /** What is wrong, in words a person can act on. */
  message: string;
  /** zod's code for the kind of problem (`invalid_type`, `too_small`, `custom`, …). */
  code: string;
}

/**
 * Stands for a value that threw when it was read (a getter, a revoked Proxy): it is not
 * missing, and issues about it say so.
 *
 * @example
 * ```ts
 * const value = (() => { try { return params.input; } catch { return UNREADABLE; } })();
 * ```
 */
export const UNREADABLE: unique symbol = Symbol('a value that could not be read');

/** The most issues an error message lists; it then says how many more there are. */
export const MAX_LISTED_ISSUES = 10;

/**
 * The first {@link MAX_LISTED_ISSUES} items, described and joined with `; `, then how
 * many more there are: an error message stays short whatever the input.
 *
 * @example
 * ```ts
 * listBounded(issues, (issue) => `${formatPath(issue.path)} ${issue.message}`);
 * // 'users[0].end_user must be a string (got number); …; and 129990 more'
 * ```
 */
export function listBounded<T>(items: readonly T[], describe: (item: T) => string): string {
  const listed = items.slice(0, MAX_LISTED_ISSUES).map(describe);
  const rest = items.length - listed.length;
  if (rest > 0) listed.push(`and ${rest} more`);
  return listed.join('; ');
}

/** `['traces', 0, 'messages', 1, 'role']` → `traces[0].messages[1].role`. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : text === '' ? key : `.${key}`;
  }
  return text === '' ? '(root)' : text;
}
