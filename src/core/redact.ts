/** What stands in for a secret in anything the SDK reports. */
export const REDACTED = '[redacted]';

/** How many causes deep {@link redactError} copies; deeper ones are left out. */
const MAX_CAUSE_DEPTH = 5;

/**
 * `text` with every occurrence of `secret` replaced by {@link REDACTED}. A secret shorter
 * than 4 characters is not searched for: it would blank out ordinary words, and no real
 * key is that short.
 *
 * @example
 * ```ts
 * redactText('Authorization: Bearer nb-123456', 'nb-123456'); // 'Authorization: Bearer [redacted]'
 * ```
 */
export function redactText(text: string, secret: string): string {
  return secret.length < 4 ? text : text.split(secret).join(REDACTED);
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
export function redactError(thrown: unknown, secret: string): Error {
  return copyError(thrown, secret, new Set(), 0);
}

function copyError(thrown: unknown, secret: string, seen: Set<unknown>, depth: number): Error {
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
