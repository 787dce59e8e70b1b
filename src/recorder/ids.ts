let counter = 0;

/** Random bytes for 256 ids, drawn at once: one call into the runtime's generator, not one per id. */
const POOL_BYTES = 16 * 256;
const pool = /* @__PURE__ */ new Uint8Array(POOL_BYTES);
let taken = POOL_BYTES;
/** The 36 characters of the id being written, decoded as one flat string. */
const text = /* @__PURE__ */ new Uint8Array(36);
const HEX = '0123456789abcdef';
let decoder: TextDecoder | undefined;

/**
 * A random UUID (version 4) from `crypto.getRandomValues`, written as ASCII and decoded
 * once. `crypto.randomUUID` builds its string by concatenation in Node: a tree of some
 * 20 pieces, ~500 bytes of garbage for each id and twice the time (one is made for every
 * interaction and every conversation). `undefined` where there is no Web Crypto.
 */
function randomUuid(): string | undefined {
  if (taken === POOL_BYTES) {
    if (typeof globalThis.crypto?.getRandomValues !== 'function') return undefined;
    globalThis.crypto.getRandomValues(pool);
    taken = 0;
  }
  let at = 0;
  for (let index = 0; index < 16; index += 1) {
    if (index === 4 || index === 6 || index === 8 || index === 10) text[at++] = 0x2d; // '-'
    let byte = pool[taken + index] as number;
    // The version (4) and the variant (10xx) bits of RFC 9562.
    if (index === 6) byte = (byte & 0x0f) | 0x40;
    else if (index === 8) byte = (byte & 0x3f) | 0x80;
    text[at++] = HEX.charCodeAt(byte >> 4);
    text[at++] = HEX.charCodeAt(byte & 0x0f);
  }
  taken += 16;
  decoder ??= new TextDecoder();
  return decoder.decode(text);
}

/**
 * A new id for a conversation or an interaction: a random UUID where Web Crypto offers
 * random values (Node, Bun, Deno, workers, browsers), else a time, counter and random id.
 *
 * @example
 * ```ts
 * const conversationId = newId(); // '0b5a2c1e-…'
 * ```
 */
export function newId(): string {
  const uuid = randomUuid();
  if (uuid !== undefined) return uuid;
  counter += 1;
  return `id-${Date.now().toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
