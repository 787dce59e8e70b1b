import { randomUuid } from '../utils/uuid.js';

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
 * A new `Idempotency-Key`: a random UUID (version 4), made once per call and kept for
 * each of its retries.
 *
 * @example
 * ```ts
 * newIdempotencyKey(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 * ```
 */
export function newIdempotencyKey(): string {
  // Without Web Crypto's random values there is no `crypto.randomUUID` either: that throws.
  return randomUuid() ?? globalThis.crypto.randomUUID();
}
