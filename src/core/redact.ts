/** What stands in for a secret in anything the SDK logs, throws or hands to `onError`. */
export const REDACTED = '[redacted]';

/** How many causes deep {@link redactError} copies; deeper ones are left out. */
const MAX_CAUSE_DEPTH = 5;

/** The shortest encoded form searched for: shorter ones would blank out ordinary text. */
const MIN_FORM_LENGTH = 8;

/** The base64 alphabet's two variants: standard, and URL-safe. */
function base64Of(bytes: Uint8Array): { standard: string; url: string } {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const standard = btoa(binary);
  return { standard, url: standard.replaceAll('+', '-').replaceAll('/', '_') };
}

/**
 * The base64 characters that encode `secret` wherever it sits in a longer base64 text:
 * for each of the three alignments (the secret at a byte offset of 0, 1 or 2 modulo 3),
 * only the characters made of the secret's bits alone. A proxy that echoes
 * `Authorization` base64-encoded inside a larger value shows one of them.
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const firstBit = offset * 8;
    const endBit = (offset + bytes.length) * 8;
    const from = Math.ceil(firstBit / 6);
    const to = Math.floor(endBit / 6);
    const { standard, url } = base64Of(padded);
    forms.push(standard.slice(from, to), url.slice(from, to));
  }
  return forms;
}

/**
 * The secrets redacted, or one: the API key, and the feedback secret when the client has
 * one (`feedbackSecret`), each taken out of every text as the key is.
 */
export type Secrets = string | readonly string[];

/** The forms and pattern of the last few secrets: a client redacts the same one or two on every response. */
const known = new Map<string, { forms: readonly string[]; pattern: RegExp | undefined }>();
const MAX_KNOWN = 8;

/**
 * Every form in which `secret` can show in a text: as is, JSON-escaped, URL-encoded,
 * HTML-escaped, and base64-encoded (standard and URL-safe, at any alignment); the longest
 * first, so that a longer form is replaced whole. Empty for a secret under 4 characters:
 * it would blank out ordinary words, and no real key is that short.
 *
 * @example
 * ```ts
 * secretForms('nb-123456'); // ['bmItMTIzNDU2', …, 'nb-123456']
 * ```
 */
export function secretForms(secret: string): readonly string[] {
  return patternOf(secret).forms;
}

function patternOf(secret: string): { forms: readonly string[]; pattern: RegExp | undefined } {
  const cached = known.get(secret);
  if (cached !== undefined) return cached;
  const forms = new Set<string>();
  if (secret.length >= 4) {
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
    forms.add(secret.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;'));
    for (const form of base64Forms(secret)) if (form.length >= MIN_FORM_LENGTH) forms.add(form);
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  // One pass over a text finds any form; most responses hold none. The escaped form comes
  // first: it also matches the secret as is, and any mix of escapes a JSON writer chose.
  const pattern = sorted.length === 0 ? undefined : new RegExp([jsonEscapedPattern(secret), ...sorted.map(escapeRegExp)].join('|'), 'g');
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(secret, { forms: sorted, pattern });
  return known.get(secret) as { forms: readonly string[]; pattern: RegExp | undefined };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `[aA]` for a hex letter, the digit itself otherwise: JSON's `\u` escapes ignore case. */
function hexDigitPattern(digit: string): string {
  return /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit;
}

/**
 * A pattern for `secret` as any JSON writer may escape it inside a string: each UTF-16
 * unit as is or as `\uXXXX` (in either case), a `/` also as `\/` (PHP), a `"` or `\` as
 * its backslash escape. Servers differ (`\u0073k-…`, .NET's `\u002B`, PHP's `\/`), and a
 * parsed body or a log line shows the key whatever escape was on the wire. Linear: each
 * unit is one group of fixed alternatives, nothing repeats.
 */
function jsonEscapedPattern(secret: string): string {
  let pattern = '';
  for (let index = 0; index < secret.length; index += 1) {
    const unit = secret.charCodeAt(index);
    const hex = unit.toString(16).padStart(4, '0');
    const alternatives = [escapeRegExp(secret.charAt(index)), `\\\\u${[...hex].map(hexDigitPattern).join('')}`];
    if (unit === 0x2f || unit === 0x22 || unit === 0x5c) alternatives.push(escapeRegExp(`\\${secret.charAt(index)}`));
    pattern += `(?:${alternatives.join('|')})`;
  }
  return pattern;
}

/**
 * `text` with every form of `secret` ({@link secretForms}: as is, escaped, base64)
 * replaced by {@link REDACTED}.
 *
 * @example
 * ```ts
 * redactText('Authorization: Bearer nb-123456', 'nb-123456'); // 'Authorization: Bearer [redacted]'
 * ```
 */
export function redactText(text: string, secret: Secrets): string {
  if (typeof secret !== 'string') return secret.reduce((clean, one) => redactText(clean, one), text);
  const { pattern } = patternOf(secret);
  return pattern === undefined || text === '' ? text : text.replace(pattern, REDACTED);
}

/** Reads `read()`, or `undefined` when it throws (a getter, a Proxy). */
function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** Describes a thrown value that is no Error, without running its code beyond `String()`. */
function describeThrown(value: unknown): string {
  if (typeof value === 'string') return value;
  return attempt(() => String(value)) ?? 'a value that cannot be printed';
}

/**
 * A safe copy of a thrown value, to keep as an error's `cause`: a plain `Error` with the
 * same name, message, stack and primitive properties (`code`, `errno`, `syscall`…), its
 * cause copied the same way, and `secret` replaced by {@link REDACTED} in every string.
 * The original is not kept: its objects (a request, its headers), custom `inspect` or
 * getters could show the secret in ways a copy of its text cannot.
 *
 * @example
 * ```ts
 * throw new ConnectionError('POST /x failed', { cause: redactError(error, apiKey) });
 * ```
 */
export function redactError(thrown: unknown, secret: Secrets): Error {
  return copyError(thrown, secret, new Set(), 0);
}

function copyError(thrown: unknown, secret: Secrets, seen: Set<unknown>, depth: number): Error {
  seen.add(thrown);
  const clean = (text: string) => redactText(text, secret);
  if (!(attempt(() => thrown instanceof Error) ?? false)) return new Error(clean(describeThrown(thrown)));
  const original = thrown as Error;
  const message = attempt(() => original.message);
  const copy = new Error(clean(typeof message === 'string' ? message : ''));
  const name = attempt(() => original.name);
  if (typeof name === 'string') copy.name = clean(name);
  const stack = attempt(() => original.stack);
  copy.stack = typeof stack === 'string' ? clean(stack) : `${copy.name}: ${copy.message}`;
  for (const key of attempt(() => Object.keys(original)) ?? []) {
    const value = attempt(() => (original as unknown as Record<string, unknown>)[key]);
    if (typeof value === 'string') setOwn(copy, clean(key), clean(value));
    else if (typeof value === 'number' || typeof value === 'boolean') setOwn(copy, clean(key), value);
  }
  const cause = attempt(() => original.cause);
  if (cause !== undefined && depth < MAX_CAUSE_DEPTH && !seen.has(cause)) {
    copy.cause = copyError(cause, secret, seen, depth + 1);
  }
  return copy;
}

function setOwn(target: Error, key: string, value: unknown): void {
  if (key === 'message' || key === 'name' || key === 'stack' || key === 'cause' || key === '__proto__') return;
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
