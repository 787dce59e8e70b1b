import { isAlnum, isDigit, scanWork, type Span } from './chars.js';

// ISO 13616: 15 (Norway) to 34 characters, country code and check digits included.
const MIN_LENGTH = 15;
const MAX_LENGTH = 34;
/** A country code and check digits: two letters, two digits. */
const START = /[A-Za-z]{2}[0-9]{2}/;

/** The value ISO 13616 gives a character: a digit its own, a letter 10 (`A`) to 35 (`Z`). */
function valueOf(code: number): number {
  if (isDigit(code)) return code - 48;
  return (code | 32) - 87; // lower-cased, then a → 10
}

/** `n` mod 97 extended by the one or two digits of `value`. */
function extend(remainder: number, value: number): number {
  return (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
}

/**
 * IBANs: a country code (two letters), two check digits, then the account (letters and
 * digits), 15 to 34 characters in all, written in one run or in groups of four separated
 * by single spaces (`DE89 3704 0044 0532 0130 00`), that pass the ISO 7064 mod-97 check.
 * The longest such stretch from each word start is taken; the check is kept as a running
 * remainder, so each start reads at most 34 characters and their spaces once.
 *
 * @example
 * ```ts
 * findIbans('IBAN: GB82 WEST 1234 5698 7654 32.'); // [{ start: 6, end: 33, label: 'IBAN' }]
 * ```
 */
export function findIbans(text: string): Span[] {
  const spans: Span[] = [];
  let visits = 0;
  // A fixed-length pattern, so the native search is linear; it finds where an IBAN may start.
  const starts = new RegExp(START.source, 'g');
  for (let match = starts.exec(text); match !== null; match = starts.exec(text)) {
    const index = match.index;
    if (isAlnum(text.charCodeAt(index - 1))) {
      starts.lastIndex = index + 1;
      continue;
    }
    // The check runs over the account first, then the first four characters.
    let tail = 0;
    for (let offset = 0; offset < 4; offset += 1) tail = extend(tail, valueOf(text.charCodeAt(index + offset)));
    const tailDigits = 6; // two letters of two digits each, then two digits
    const spaced = text.charCodeAt(index + 4) === 32;
    let remainder = 0;
    let length = 4;
    let position = index + 4;
    let found = -1;
    while (length < MAX_LENGTH) {
      if (spaced && (length % 4 === 0)) {
        if (text.charCodeAt(position) !== 32 || !isAlnum(text.charCodeAt(position + 1))) break;
        position += 1;
      }
      const code = text.charCodeAt(position);
      if (!isAlnum(code)) break;
      remainder = extend(remainder, valueOf(code));
      position += 1;
      length += 1;
      if (length >= MIN_LENGTH && !isAlnum(text.charCodeAt(position)) && (remainder * 10 ** tailDigits + tail) % 97 === 1) {
        found = position;
      }
    }
    visits += position - index;
    if (found !== -1) spans.push({ start: index, end: found, label: 'IBAN' });
    starts.lastIndex = found !== -1 ? found : index + 1;
  }
  scanWork.visits += visits;
  return spans;
}
