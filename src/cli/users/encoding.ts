import { CliError, EXIT } from '../failure.js';

const NEWLINE = 0x0a;

/** Byte-order marks of the encodings a spreadsheet may save "Unicode text" in. */
const BOMS: readonly [number[], string][] = [
  [[0xff, 0xfe, 0x00, 0x00], 'UTF-32 (little-endian)'],
  [[0x00, 0x00, 0xfe, 0xff], 'UTF-32 (big-endian)'],
  [[0xff, 0xfe], 'UTF-16 (little-endian)'],
  [[0xfe, 0xff], 'UTF-16 (big-endian)'],
];

const HOW = 'save it as UTF-8 (in Excel: Save As → "CSV UTF-8") and run again';

/** Where the first byte that is not UTF-8 is in `bytes`, or -1. A sequence cut at the end is not an error. */
function firstInvalid(bytes: Uint8Array): number {
  for (let index = 0; index < bytes.length; ) {
    const byte = bytes[index]!;
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0;
    if (length === 0) return index;
    for (let next = 1; next < length; next += 1) {
      if (index + next >= bytes.length) return -1;
      const continuation = bytes[index + next]!;
      if ((continuation & 0xc0) !== 0x80) return index;
    }
    index += length;
  }
  return -1;
}

/**
 * The chunks of a file as they are, once checked to be UTF-8: a file in another encoding
 * is refused with a message that names it, rather than read with replacement characters
 * (`MÃ¼ller`, `M�ller`) and synced so. UTF-16 and UTF-32 are told by their byte-order
 * mark; Latin-1 (Windows-1252) by a byte that cannot start or continue a UTF-8 character.
 *
 * @example
 * ```ts
 * for await (const chunk of utf8Chunks(createReadStream(path), path)) parser.write(chunk);
 * ```
 */
export async function* utf8Chunks(chunks: AsyncIterable<Uint8Array>, file: string): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first = true;
  let line = 1;
  let carry: Uint8Array = new Uint8Array(0);
  for await (const chunk of chunks) {
    if (first) {
      first = false;
      for (const [bom, name] of BOMS) {
        if (bom.every((byte, index) => chunk[index] === byte)) {
          throw new CliError(`${file} is ${name} (it starts with a byte-order mark), not UTF-8: ${HOW}`, EXIT.usage);
        }
      }
    }
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      const joined = new Uint8Array(carry.length + chunk.length);
      joined.set(carry);
      joined.set(chunk, carry.length);
      const at = Math.max(0, firstInvalid(joined));
      for (let index = carry.length; index < at; index += 1) if (joined[index] === NEWLINE) line += 1;
      const byte = joined[at] ?? 0;
      throw new CliError(
        `${file} is not UTF-8: line ${line} has the byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')}, which UTF-8 does not allow there ` +
          `(the file looks like Latin-1 / Windows-1252): ${HOW}`,
        EXIT.usage,
      );
    }
    for (const byte of chunk) if (byte === NEWLINE) line += 1;
    carry = chunk.subarray(Math.max(0, chunk.length - 3));
    yield chunk;
  }
  try {
    decoder.decode();
  } catch {
    throw new CliError(`${file} is not UTF-8: it ends in the middle of a character: ${HOW}`, EXIT.usage);
  }
}
