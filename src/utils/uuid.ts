/** Random bytes for 256 UUIDs, drawn at once: one call into the runtime's generator, not one per UUID. */
const POOL_BYTES = 16 * 256;
const pool = /* @__PURE__ */ new Uint8Array(POOL_BYTES);
let taken = POOL_BYTES;
/** The 36 characters of the UUID being written, decoded as one flat string. */
const text = /* @__PURE__ */ new Uint8Array(36);
const HEX = '0123456789abcdef';
let decoder: TextDecoder | undefined;

/**
 * A random UUID (version 4) from `crypto.getRandomValues`, written as ASCII and decoded
 * once; `undefined` where there is no Web Crypto. `crypto.randomUUID` builds its string
 * by concatenation in Node: a tree of some 20 pieces, ~650 bytes allocated for each and
 * half again the time (the recorder makes one for every interaction and conversation).
 *
 * @example
 * ```ts
 * randomUuid(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 * ```
 */
export function randomUuid(): string | undefined {
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
