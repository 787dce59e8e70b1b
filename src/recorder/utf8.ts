const NON_ASCII = /[^\x20-\x7e]/;

/**
 * The length of `text` in UTF-8 bytes, as it goes on the wire, without encoding it: the
 * queue and the size limit count bytes, and a copy of every payload only to measure it
 * would double the work. A lone surrogate counts 3 bytes, as the U+FFFD it becomes.
 */
export function utf8ByteLength(text: string): number {
  // Most payloads are ASCII: one native scan answers, instead of a loop in JavaScript.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) {
      bytes += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      // A pair: two code units, four bytes.
      bytes += 2;
      index += 1;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
