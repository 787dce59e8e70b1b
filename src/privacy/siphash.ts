// SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed hash, fast on short inputs, whose
// output cannot be predicted without the key. Synchronous, unlike Web Crypto's HMAC,
// because the sampling decision is taken inside `startConversation`, which is. Written
// on 32-bit halves, since JavaScript numbers hold 53 bits and BigInt would allocate on
// every step.

/**
 * A SipHash key: 128 bits as four 32-bit words, `k0` (high, low) then `k1` (high, low).
 *
 * @example
 * ```ts
 * const key: SipKey = new Uint32Array([0x07060504, 0x03020100, 0x0f0e0d0c, 0x0b0a0908]); // bytes 00..0f
 * ```
 */
export type SipKey = Uint32Array;

// The state v0..v3, each as (high, low): v[0], v[1] is v0.
const v = new Uint32Array(8);

/** v[a] += v[b], on 64 bits. */
function add(a: number, b: number): void {
  const low = v[a + 1]! + v[b + 1]!;
  v[a] = v[a]! + v[b]! + (low > 0xffffffff ? 1 : 0);
  v[a + 1] = low;
}

/** v[a] ^= v[b]. */
function xor(a: number, b: number): void {
  v[a] = v[a]! ^ v[b]!;
  v[a + 1] = v[a + 1]! ^ v[b + 1]!;
}

/** v[a] rotated left by `bits` (1 to 31, or 32). */
function rotl(a: number, bits: number): void {
  const high = v[a]!;
  const low = v[a + 1]!;
  if (bits === 32) {
    v[a] = low;
    v[a + 1] = high;
    return;
  }
  v[a] = (high << bits) | (low >>> (32 - bits));
  v[a + 1] = (low << bits) | (high >>> (32 - bits));
}

function round(): void {
  add(0, 2); rotl(2, 13); xor(2, 0); rotl(0, 32);
  add(4, 6); rotl(6, 16); xor(6, 4);
  add(0, 6); rotl(6, 21); xor(6, 0);
  add(4, 2); rotl(2, 17); xor(2, 4); rotl(4, 32);
}

/** Mixes the 64-bit little-endian word (high, low) into the state. */
function compress(high: number, low: number, rounds: number): void {
  v[6] = v[6]! ^ high;
  v[7] = v[7]! ^ low;
  for (let index = 0; index < rounds; index += 1) round();
  v[0] = v[0]! ^ high;
  v[1] = v[1]! ^ low;
}

/** The 32-bit little-endian word of `bytes` at `offset`, 0 past the end. */
function word(bytes: Uint8Array, offset: number, end: number): number {
  let value = 0;
  for (let index = Math.min(end, offset + 4) - 1; index >= offset; index -= 1) value = (value << 8) | bytes[index]!;
  return value >>> 0;
}

/**
 * SipHash-2-4 of `bytes` under `key`, as the two halves of its 64-bit value: `[high, low]`.
 *
 * @example
 * ```ts
 * sipHash24(KEY_00_0F, new Uint8Array(0)); // [0x726fdb47, 0xdd0e0e31], the reference's first vector
 * ```
 */
export function sipHash24(key: SipKey, bytes: Uint8Array): [high: number, low: number] {
  v.set([
    key[0]! ^ 0x736f6d65, key[1]! ^ 0x70736575, // v0 = k0 ^ "somepseu"
    key[2]! ^ 0x646f7261, key[3]! ^ 0x6e646f6d, // v1 = k1 ^ "dorandom"
    key[0]! ^ 0x6c796765, key[1]! ^ 0x6e657261, // v2 = k0 ^ "lygenera"
    key[2]! ^ 0x74656462, key[3]! ^ 0x79746573, // v3 = k1 ^ "tedbytes"
  ]);
  const length = bytes.length;
  const whole = length - (length % 8);
  for (let offset = 0; offset < whole; offset += 8) {
    compress(word(bytes, offset + 4, length), word(bytes, offset, length), 2);
  }
  // The last block: the bytes left, and the length's low byte on top.
  const high = (word(bytes, whole + 4, length) | ((length & 0xff) << 24)) >>> 0;
  compress(high, word(bytes, whole, length), 2);
  v[5] = v[5]! ^ 0xff;
  for (let index = 0; index < 4; index += 1) round();
  return [(v[0]! ^ v[2]! ^ v[4]! ^ v[6]!) >>> 0, (v[1]! ^ v[3]! ^ v[5]! ^ v[7]!) >>> 0];
}
