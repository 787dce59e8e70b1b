// Character classes of the PII scanners, on UTF-16 code units (ASCII only: the formats
// they find are ASCII), and the span type they all produce.

/**
 * A stretch of text a scanner found, `[start, end)`, and the label that replaces it.
 *
 * @example
 * ```ts
 * const span: Span = { start: 8, end: 21, label: 'EMAIL' }; // 'write to a@example.com' → 'write to [EMAIL]'
 * ```
 */
export interface Span {
  start: number;
  end: number;
  label: PiiLabel;
}

/**
 * What a span was taken for; it is written `[LABEL]` in the masked text.
 *
 * @example
 * ```ts
 * const label: PiiLabel = 'CARD';
 * ```
 */
export type PiiLabel = 'EMAIL' | 'PHONE' | 'CARD' | 'IBAN' | 'SECRET';

/**
 * How many characters the scanners have looked at since the process started: the count
 * of work that the linear-time test compares across input sizes. One addition per scan,
 * not per character.
 *
 * @example
 * ```ts
 * const before = scanWork.visits; maskText(text); const cost = scanWork.visits - before;
 * ```
 */
export const scanWork = { visits: 0 };

/**
 * `0`–`9`.
 *
 * @example
 * ```ts
 * isDigit('7'.charCodeAt(0)); // true
 * ```
 */
export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * `A`–`Z`, `a`–`z`.
 *
 * @example
 * ```ts
 * isLetter('é'.charCodeAt(0)); // false: ASCII only
 * ```
 */
export function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * A letter or a digit. `NaN` (before the start or past the end of a string) is neither.
 *
 * @example
 * ```ts
 * isAlnum('abc'.charCodeAt(-1)); // false
 * ```
 */
export function isAlnum(code: number): boolean {
  return isDigit(code) || isLetter(code);
}

/**
 * Whether `text` has no letter or digit just before `index`: where a word may start.
 *
 * @example
 * ```ts
 * startsWord('a 4111', 2); // true
 * ```
 */
export function startsWord(text: string, index: number): boolean {
  return !isAlnum(text.charCodeAt(index - 1));
}
