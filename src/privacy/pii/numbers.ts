import { isAlnum, isDigit, scanWork, type Span } from './chars.js';

// The longest card number has 19 digits, the longest phone number (E.164) 15: no
// window needs more, so no scan from one start goes further.
const MAX_DIGITS = 19;

const SPACE = 32;
const PLUS = 43;
const DASH = 45;
const DOT = 46;
const COMMA = 44;
/** Where a number may start: a digit, `+` or `(`. */
const CANDIDATE = /[0-9+(]/;
const OPEN = 40;
const CLOSE = 41;

/** One group of digits of a number as written, `(415)` or `555`. */
interface Group {
  start: number;
  end: number;
  digits: number;
  /** Written in parentheses. */
  paren: boolean;
  /** The separator before it: a space, `-`, `.`, `)` (right after a parenthesis), or 0 for the first. */
  sep: number;
}

/** The groups of a number written from `start`: a `+`, then digits grouped by single separators. */
interface Written {
  plus: boolean;
  groups: Group[];
  /** Where scanning stopped; past the end of the first group when there are none. */
  stop: number;
}

function isSeparator(code: number): boolean {
  return code === SPACE || code === DASH || code === DOT;
}

/**
 * Whether the character at `index` may border a number: not a letter or digit, and not
 * the point or comma of a decimal (`3.14`, `1,5`), which would make a number of a fraction.
 */
function isBoundary(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (isAlnum(code)) return false;
  if (code !== DOT && code !== COMMA) return true;
  return !isDigit(text.charCodeAt(index - 1)) || !isDigit(text.charCodeAt(index + 1));
}

/** Reads the groups from `start`, at most {@link MAX_DIGITS} digits in all. */
function readGroups(text: string, start: number): Written {
  const groups: Group[] = [];
  let index = start;
  const plus = text.charCodeAt(index) === PLUS;
  if (plus) index += 1;
  let total = 0;
  let sep = 0;
  for (;;) {
    const groupStart = index;
    const paren = text.charCodeAt(index) === OPEN && groups.length === (plus ? 1 : 0);
    if (paren) index += 1;
    const digitsStart = index;
    while (isDigit(text.charCodeAt(index)) && total + (index - digitsStart) <= MAX_DIGITS) index += 1;
    const digits = index - digitsStart;
    // A run longer than any number: nothing ends inside it.
    if (digits === 0 || total + digits > MAX_DIGITS) break;
    if (paren) {
      if (text.charCodeAt(index) !== CLOSE) break;
      index += 1;
    }
    groups.push({ start: groupStart, end: index, digits, paren, sep });
    total += digits;
    const next = text.charCodeAt(index);
    const after = text.charCodeAt(index + 1);
    if (isSeparator(next) && (isDigit(after) || after === OPEN)) {
      sep = next;
      index += 1;
    } else if (paren && isDigit(next)) {
      sep = CLOSE;
    } else break;
  }
  return { plus, groups, stop: index };
}

/** The Luhn check of the digits in `[from, to)`, skipping separators. */
function luhn(text: string, from: number, to: number): boolean {
  let sum = 0;
  let double = false;
  for (let index = to - 1; index >= from; index -= 1) {
    const code = text.charCodeAt(index);
    if (!isDigit(code)) continue;
    let digit = code - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * A card number: 13 to 19 digits, in one run or grouped by one kind of separator (a space
 * or `-`), that pass the Luhn check.
 */
function isCard({ plus, groups }: Written, last: number, digits: number, text: string): boolean {
  if (plus || digits < 13 || digits > 19) return false;
  const sep = groups[1]?.sep ?? 0;
  if (sep !== 0 && sep !== SPACE && sep !== DASH) return false;
  for (let index = 0; index <= last; index += 1) {
    const group = groups[index]!;
    if (group.paren || (index > 0 && group.sep !== sep)) return false;
  }
  return luhn(text, groups[0]!.start, groups[last]!.end);
}

/**
 * A phone number: `+` and 8 to 15 digits, or 10 to 15 digits without it; grouped, each
 * group at most 6 digits, by one kind of separator (besides the one after a `+` country
 * code or a parenthesised area code); grouped by dots only as 3 groups (`415.555.2671`,
 * not an IP address); never shaped like a date (`2024-01-15 10`) or written in fours
 * like a card (`4111 1111 1111`).
 */
function isPhone({ plus, groups }: Written, last: number, digits: number): boolean {
  if (digits > 15 || digits < (plus ? 8 : 10)) return false;
  if (last === 0) return true;
  if (!plus && groups[0]!.digits === 4 && groups[1]?.digits === 2) return false;
  // Three groups of four in a row are how cards and IBANs are written, not phones.
  const first = plus ? 1 : 0;
  if (last - first >= 2 && groups[first]!.digits === 4 && groups[first + 1]!.digits === 4 && groups[first + 2]!.digits === 4) {
    return false;
  }
  let sep = 0;
  let grouped = 0;
  for (let index = 0; index <= last; index += 1) {
    const group = groups[index]!;
    if (group.digits > 6) return false;
    const free = index === 0 || (index === 1 && plus) || groups[index - 1]!.paren;
    if (!free) {
      if (sep !== 0 && group.sep !== sep) return false;
      sep = group.sep;
    }
    if (!(plus && index === 0)) grouped += 1;
  }
  return sep !== DOT || grouped === 3;
}

/**
 * Card numbers (Luhn-checked), then phone numbers, in one pass: from each place a
 * number may start (a digit, `+` or `(` with no letter or digit before it), the longest
 * run of groups that is one, ending where no letter or digit follows. Each start reads
 * at most 19 digits and their separators, so the work is linear in the text.
 *
 * @example
 * ```ts
 * findNumbers('card 4111 1111 1111 1111, call +1 (415) 555-2671');
 * // [{ start: 5, end: 24, label: 'CARD' }, { start: 31, end: 48, label: 'PHONE' }]
 * ```
 */
export function findNumbers(text: string): Span[] {
  const spans: Span[] = [];
  let visits = 0;
  const candidates = new RegExp(CANDIDATE.source, 'g');
  let index = 0;
  while (index < text.length) {
    // The native search skips the text that cannot start a number, most of it.
    candidates.lastIndex = index;
    if (candidates.exec(text) === null) break;
    index = candidates.lastIndex - 1;
    if (!isBoundary(text, index - 1)) {
      index += 1;
      continue;
    }
    const written = readGroups(text, index);
    visits += written.stop - index + 1;
    const found = longestNumber(text, written);
    if (found !== undefined) {
      spans.push({ start: index, end: found.end, label: found.label });
      index = found.end;
    } else if (written.groups.length > 0) {
      // The next group may start a number of its own.
      index = written.groups.length > 1 ? written.groups[1]!.start : written.groups[0]!.end;
    } else {
      // Past the whole digit run, however long: no number starts inside it.
      const from = index;
      index += 1;
      while (isDigit(text.charCodeAt(index))) index += 1;
      visits += index - from;
    }
  }
  scanWork.visits += visits;
  return spans;
}

/** The longest card or phone number among the groups, if any. */
function longestNumber(text: string, written: Written): { end: number; label: 'CARD' | 'PHONE' } | undefined {
  const { groups } = written;
  let digits = 0;
  for (const group of groups) digits += group.digits;
  for (let last = groups.length - 1; last >= 0; last -= 1) {
    const { end } = groups[last]!;
    if (isBoundary(text, end)) {
      if (isCard(written, last, digits, text)) return { end, label: 'CARD' };
      if (isPhone(written, last, digits)) return { end, label: 'PHONE' };
    }
    digits -= groups[last]!.digits;
  }
  return undefined;
}
