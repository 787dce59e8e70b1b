/**
 * The header that makes a repeated ingesting request count once (the IETF httpapi
 * draft's name); the reference server stores a body once per key.
 *
 * @example
 * ```ts
 * headers[IDEMPOTENCY_HEADER] = newIdempotencyKey();
 * ```
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * A new `Idempotency-Key`: a random UUID (version 4), from `crypto.randomUUID` where
 * the runtime has it, else from `crypto.getRandomValues` (a browser page over plain
 * HTTP has only the latter). Made once per call, and kept for each of its retries.
 *
 * @example
 * ```ts
 * newIdempotencyKey(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 * ```
 */
export function newIdempotencyKey(): string {
  const uuid = globalThis.crypto.randomUUID?.();
  if (uuid !== undefined) return uuid;
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
