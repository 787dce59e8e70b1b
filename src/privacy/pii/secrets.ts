import { isAlnum, isDigit, isLetter, scanWork, type Span } from './chars.js';

/**
 * Prefixes of API keys and access tokens of well-known services: OpenAI and Anthropic
 * (`sk-`), Stripe, GitHub, GitLab, Slack, AWS, Google, Hugging Face, npm, PyPI.
 */
const KEY_PREFIXES = [
  'sk-', 'sk_', 'rk_live_', 'rk_test_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-',
  'xoxb-', 'xoxp-', 'xoxa-', 'xoxs-', 'xapp-', 'AKIA', 'ASIA', 'AIza', 'hf_', 'npm_', 'pypi-',
];
/** The prefixes by their first character: most words start with none of these. */
const PREFIXES_BY_FIRST = new Map<number, string[]>();
for (const prefix of KEY_PREFIXES) {
  const first = prefix.charCodeAt(0);
  PREFIXES_BY_FIRST.set(first, [...(PREFIXES_BY_FIRST.get(first) ?? []), prefix]);
}
/** A key's characters after its prefix: at least this many. */
const MIN_KEY_TAIL = 16;
/** A token without a known prefix: at least this long … */
const MIN_TOKEN_LENGTH = 32;
/** … with letters and digits side by side in at least this many places … */
const MIN_LETTER_DIGIT_MEETS = 2;
/** … and at least this many bits of Shannon entropy per character. */
const MIN_ENTROPY_BITS = 3;
/** `Bearer <token>`: a token at least this long. */
const MIN_BEARER_TOKEN = 8;

const EQUALS = 61;

/** A key character: letters, digits, `_` and `-`. */
function isKeyChar(code: number): boolean {
  return isAlnum(code) || code === 95 || code === 45;
}

// The characters of base64, base64url and hex, looked up: the scan of every run of text
// asks this once per character.
const TOKEN_CHARS = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) TOKEN_CHARS[code] = isKeyChar(code) || code === 43 || code === 47 ? 1 : 0;

/** A character of base64, base64url or hex: letters, digits, `+ / _ -`. */
function isTokenChar(code: number): boolean {
  return code < 128 && TOKEN_CHARS[code] === 1;
}

/** A character of an RFC 6750 bearer token: letters, digits, `- . _ ~ + /`. */
function isBearerChar(code: number): boolean {
  return isTokenChar(code) || code === 46 || code === 126;
}

// One table of counts, reset after each run for the characters the run used.
const counts = new Uint32Array(128);

/**
 * Whether the run `[start, end)` looks random: long enough, letters and digits meeting
 * in several places (random strings do; words, paths and `name-2024` rarely), and
 * enough entropy (`a1a1a1…` has little).
 */
function looksRandom(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < MIN_TOKEN_LENGTH) return false;
  let meets = 0;
  let previous = 0; // 1 letter, 2 digit, 0 other
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    const kind = isLetter(code) ? 1 : isDigit(code) ? 2 : 0;
    if (kind !== 0 && previous !== 0 && kind !== previous) meets += 1;
    previous = kind;
    counts[code] = counts[code]! + 1;
  }
  let bits = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    const count = counts[code]!;
    if (count === 0) continue; // already summed
    const share = count / length;
    bits -= share * Math.log2(share);
    counts[code] = 0;
  }
  scanWork.visits += 2 * length;
  return meets >= MIN_LETTER_DIGIT_MEETS && bits >= MIN_ENTROPY_BITS;
}

/** The end of a key of a known prefix at `start`, or -1. */
function keyEnd(text: string, start: number, runEnd: number): number {
  const prefixes = PREFIXES_BY_FIRST.get(text.charCodeAt(start));
  if (prefixes === undefined) return -1;
  for (const prefix of prefixes) {
    if (!text.startsWith(prefix, start)) continue;
    let end = start + prefix.length;
    while (end < runEnd && isKeyChar(text.charCodeAt(end))) end += 1;
    scanWork.visits += end - start;
    return end - start - prefix.length >= MIN_KEY_TAIL ? end : -1;
  }
  return -1;
}

/**
 * API keys and tokens, two ways, in one pass over the runs of base64, base64url and hex
 * characters (letters, digits, `+ / _ -`, then any `=` padding):
 *
 * - a known prefix (`sk-`, `ghp_`, `AKIA`, … see `KEY_PREFIXES`) where a key may start,
 *   followed by at least 16 letters, digits, `_` or `-`;
 * - a whole run of at least 32 characters that looks random: letters and digits side by
 *   side in at least 2 places, and at least 3 bits of entropy per character. UUIDs and
 *   hex digests count; words joined by `-` or `_`, paths and version strings do not.
 *
 * @example
 * ```ts
 * findSecrets('key: sk-proj-4fQx9ZpL2mN8vR1tY6wK'); // [{ start: 5, end: 34, label: 'SECRET' }]
 * ```
 */
export function findSecrets(text: string): Span[] {
  const spans: Span[] = [];
  const length = text.length;
  let index = 0;
  let visits = 0;
  while (index < length) {
    const first = text.charCodeAt(index);
    if (!isTokenChar(first)) {
      index += 1;
      continue;
    }
    const start = index;
    let inner = false; // a `+` or `/` inside, after which a key may start
    for (index += 1; index < length; index += 1) {
      const code = text.charCodeAt(index);
      if (!isTokenChar(code)) break;
      if (code === 43 || code === 47) inner = true;
    }
    while (text.charCodeAt(index) === EQUALS) index += 1;
    visits += index - start;
    if (index - start >= MIN_TOKEN_LENGTH && looksRandom(text, start, index)) {
      spans.push({ start, end: index, label: 'SECRET' });
      continue;
    }
    let at = start;
    while (at < index) {
      const end = keyEnd(text, at, index);
      if (end !== -1) spans.push({ start: at, end, label: 'SECRET' });
      if (!inner) break;
      // The next place after a `+` or `/`.
      const from = Math.max(at + 1, end);
      at = from;
      while (at < index && !isAfterSeparator(text, at)) at += 1;
      visits += at - from;
    }
  }
  scanWork.visits += visits;
  return spans;
}

/** Whether `index` follows a `+` or `/`: where a key may start inside a run. */
function isAfterSeparator(text: string, index: number): boolean {
  const previous = text.charCodeAt(index - 1);
  return previous === 43 || previous === 47;
}

/**
 * The token of each `Bearer <token>` (the word in any case, then spaces or tabs, then at
 * least 8 characters of an RFC 6750 token): the span is the token; the word stays.
 *
 * @example
 * ```ts
 * findBearerTokens('Authorization: Bearer abc.def.ghi-123'); // [{ start: 22, end: 37, label: 'SECRET' }]
 * ```
 */
export function findBearerTokens(text: string): Span[] {
  const spans: Span[] = [];
  let visits = 0;
  for (let at = indexOfBearer(text, 0); at !== -1; at = indexOfBearer(text, at + 1)) {
    let start = at + 6;
    if (!isBlank(text.charCodeAt(start))) continue;
    while (isBlank(text.charCodeAt(start))) start += 1;
    let end = start;
    while (isBearerChar(text.charCodeAt(end))) end += 1;
    while (text.charCodeAt(end) === EQUALS) end += 1;
    visits += end - at;
    if (end - start >= MIN_BEARER_TOKEN) {
      spans.push({ start, end, label: 'SECRET' });
      at = end - 1;
    }
  }
  scanWork.visits += visits;
  return spans;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** The next `bearer`, in any case, at a word start, from `from`; -1 when there is none. */
function indexOfBearer(text: string, from: number): number {
  for (let index = from; index + 6 <= text.length; index += 1) {
    if ((text.charCodeAt(index) | 32) !== 98) continue; // b or B
    if (text.slice(index, index + 6).toLowerCase() === 'bearer' && !isAlnum(text.charCodeAt(index - 1))) {
      scanWork.visits += index - from + 6;
      return index;
    }
  }
  scanWork.visits += text.length - from;
  return -1;
}
