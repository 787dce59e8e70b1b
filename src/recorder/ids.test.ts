import { afterEach, describe, expect, it, vi } from 'vitest';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A fresh copy of the module: its pool of random bytes starts empty. */
async function freshNewId(): Promise<() => string> {
  vi.resetModules();
  return (await import('./ids.js')).newId;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('newId', () => {
  it('gives random UUIDs of version 4, all different, across refills of its pool', async () => {
    const newId = await freshNewId();
    const ids = Array.from({ length: 2_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('writes the random bytes as RFC 9562 says, the version and variant bits set', async () => {
    const newId = await freshNewId();
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      const bytes = array as unknown as Uint8Array;
      for (let index = 0; index < bytes.length; index += 1) bytes[index] = index % 16 === 0 ? 0xff : (index % 16) * 17;
      return array;
    });
    expect(newId()).toBe('ff112233-4455-4677-8899-aabbccddeeff');
    expect(newId()).toBe('ff112233-4455-4677-8899-aabbccddeeff');
  });

  it('draws random values once for 256 ids', async () => {
    const newId = await freshNewId();
    const draw = vi.spyOn(globalThis.crypto, 'getRandomValues');
    for (let index = 0; index < 256; index += 1) newId();
    expect(draw).toHaveBeenCalledTimes(1);
    newId();
    expect(draw).toHaveBeenCalledTimes(2);
  });

  it('falls back to a time, counter and random id without Web Crypto', async () => {
    vi.stubGlobal('crypto', undefined);
    const newId = await freshNewId();
    const [first, second] = [newId(), newId()];
    expect(first).toMatch(/^id-[0-9a-z]+-1-[0-9a-z]+$/);
    expect(second).toMatch(/^id-[0-9a-z]+-2-[0-9a-z]+$/);
  });
});
