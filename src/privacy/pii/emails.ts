import { isAlnum, isLetter, scanWork, type Span } from './chars.js';

// RFC 5321's limits: they bound how far a scan goes from each `@`.
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

/** A character of an unquoted local part: letters, digits and `. _ % + -`. */
function isLocal(code: number): boolean {
  return isAlnum(code) || code === 46 || code === 95 || code === 37 || code === 43 || code === 45;
}

/** A character of a domain name: letters, digits, `.` and `-`. */
function isDomain(code: number): boolean {
  return isAlnum(code) || code === 46 || code === 45;
}

/** `.` or `-`: punctuation that may follow an address in a sentence, not part of its domain. */
function isTrailing(code: number): boolean {
  return code === 46 || code === 45;
}

/**
 * E-mail addresses: a local part of up to 64 letters, digits and `. _ % + -`, an `@`, and
 * a domain of up to 253 letters, digits, dots and hyphens whose last label is two or more
 * letters. Anchored on each `@`: the scan goes back at most to the previous address or
 * `@` (neither is a local-part character) and forward at most to the next `@`, so every
 * character is looked at a bounded number of times.
 *
 * @example
 * ```ts
 * findEmails('write to ana.b@example.co.uk.'); // [{ start: 9, end: 28, label: 'EMAIL' }]
 * ```
 */
export function findEmails(text: string): Span[] {
  const spans: Span[] = [];
  let visits = 0;
  let floor = 0; // the end of the last address found: no local part reaches back past it
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > floor && at - start < MAX_LOCAL && isLocal(text.charCodeAt(start - 1))) start -= 1;
    while (start < at && text.charCodeAt(start) === 46) start += 1; // a local part never starts with a dot
    let end = at + 1;
    while (end < text.length && end - at - 1 < MAX_DOMAIN && isDomain(text.charCodeAt(end))) end += 1;
    visits += end - start;
    while (end > at + 1 && isTrailing(text.charCodeAt(end - 1))) end -= 1;
    if (start < at && isAlnum(text.charCodeAt(at + 1)) && hasTld(text, at + 1, end)) {
      spans.push({ start, end, label: 'EMAIL' });
      floor = end;
    }
  }
  scanWork.visits += visits;
  return spans;
}

/** Whether the domain `[from, end)` has a dot and ends in a label of two or more letters. */
function hasTld(text: string, from: number, end: number): boolean {
  let letters = 0;
  for (let index = end - 1; index > from; index -= 1) {
    const code = text.charCodeAt(index);
    if (code === 46) return letters >= 2;
    if (!isLetter(code)) return false;
    letters += 1;
  }
  return false;
}
