/**
 * Whether the code runs in a web page: a `window` with a `document`. Node, Bun, Deno (no
 * `document`), web workers and service workers (no `window`) are not browsers here,
 * since their code is not shipped to the visitors of a page.
 *
 * @example
 * ```ts
 * if (isBrowser()) console.warn('in a web page');
 * ```
 */
export function isBrowser(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown };
  return typeof scope.window === 'object' && scope.window !== null && typeof scope.document === 'object' && scope.document !== null;
}
