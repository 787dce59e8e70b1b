let counter = 0;

/** Random bytes for the next ids, drawn 256 ids at a time: one Web Crypto call for many. */
const POOL_BYTES = 4096;
let pool: Uint8Array | undefined;
let taken = POOL_BYTES;

/** The two lowercase hex digits of each byte, as character codes. */
const HEX_CODES = Array.from({ length: 256 }, (_, byte) => {
  const hex = byte.toString(16).padStart(2, '0');
  return [hex.charCodeAt(0), hex.charCodeAt(1)] as const;
});

/** The character codes of the id being made: `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`. */
const codes = Array.from({ length: 36 }, () => 0x2d);

/** 16 random bytes from the pool at `at`; the pool is filled at first use, never at import (workers refuse random values in global scope). */
function randomBytes(crypto: Crypto): { bytes: Uint8Array; at: number } {
  if (pool === undefined || taken === POOL_BYTES) {
    pool ??= new Uint8Array(POOL_BYTES);
    crypto.getRandomValues(pool);
    taken = 0;
  }
  const at = taken;
  taken += 16;
  return { bytes: pool, at };
}

/**
 * A version 4 UUID, as `crypto.randomUUID()` gives one, made as one flat string: Node's
 * own builds it from some 20 concatenated pieces, ~600 bytes of garbage per id, and the
 * recorder makes several per conversation (its id, each interaction's, its idempotency
 * key, its lease).
 */
function uuid(crypto: Crypto): string {
  const { bytes, at } = randomBytes(crypto);
  let code = 0;
  for (let index = 0; index < 16; index += 1) {
    if (index === 4 || index === 6 || index === 8 || index === 10) code += 1; // the dashes stay
    let byte = bytes[at + index] as number;
    if (index === 6) byte = (byte & 0x0f) | 0x40; // version 4
    else if (index === 8) byte = (byte & 0x3f) | 0x80; // variant 10xx
    const [high, low] = HEX_CODES[byte] as readonly [number, number];
    codes[code] = high;
    codes[code + 1] = low;
    code += 2;
  }
  return String.fromCharCode(...codes);
}

/**
 * A new id for a conversation or an interaction: a random version 4 UUID where Web
 * Crypto offers random values (Node, Bun, Deno, workers, browsers), else a time, counter
 * and random id.
 *
 * @example
 * ```ts
 * const conversationId = newId(); // '0b5a…'
 * ```
 */
export function newId(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto?.getRandomValues === 'function') return uuid(crypto);
  counter += 1;
  return `id-${Date.now().toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
