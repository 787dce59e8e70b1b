import { describe, expect, it } from 'vitest';
import { utf8Chunks } from './encoding.js';

async function read(...chunks: Uint8Array[]): Promise<string> {
  async function* source(): AsyncGenerator<Uint8Array> {
    yield* chunks;
  }
  try {
    let bytes = 0;
    for await (const chunk of utf8Chunks(source(), 'users.csv')) bytes += chunk.length;
    return `ok ${bytes}`;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('utf8Chunks', () => {
  it('passes UTF-8 through, a character split across chunks included', async () => {
    const bytes = Buffer.from('end_user\nMüller\n', 'utf8');
    expect(await read(bytes.subarray(0, 11), bytes.subarray(11))).toBe(`ok ${bytes.length}`);
  });

  it('refuses Latin-1, naming it and the line', async () => {
    expect(await read(Buffer.from('end_user\nok\nM\xfcller\n', 'latin1'))).toMatch(
      /^users\.csv is not UTF-8: line 3 has the byte 0xFC, .*looks like Latin-1 \/ Windows-1252\): save it as UTF-8/,
    );
  });

  it('refuses UTF-16 and UTF-32 by their byte-order mark', async () => {
    expect(await read(Buffer.from('\ufeffend_user\n', 'utf16le'))).toMatch(/^users\.csv is UTF-16 \(little-endian\) .*not UTF-8/);
    expect(await read(Buffer.from([0xfe, 0xff, 0x00, 0x65]))).toMatch(/is UTF-16 \(big-endian\)/);
    expect(await read(Buffer.from([0xff, 0xfe, 0x00, 0x00]))).toMatch(/is UTF-32 \(little-endian\)/);
  });

  it('refuses a file that ends in the middle of a character', async () => {
    expect(await read(Buffer.from([0x61, 0xc3]))).toMatch(/ends in the middle of a character/);
  });
});
