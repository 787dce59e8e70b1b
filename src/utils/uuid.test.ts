import { afterEach, describe, expect, it, vi } from 'vitest';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A fresh copy of the module: its pool of random bytes starts empty. */
async function freshRandomUuid(): Promise<() => string | undefined> {
  vi.resetModules();
  return (await import('./uuid.js')).randomUuid;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('randomUuid', () => {
  it('gives random UUIDs of version 4, all different, across refills of its pool', async () => {
    const randomUuid = await freshRandomUuid();
    const uuids = Array.from({ length: 2_000 }, () => randomUuid());
    for (const uuid of uuids) expect(uuid).toMatch(UUID_V4);
    expect(new Set(uuids).size).toBe(uuids.length);
  });

  it('writes the random bytes as RFC 9562 says, the version and variant bits set', async () => {
    const randomUuid = await freshRandomUuid();
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      const bytes = array as unknown as Uint8Array;
      for (let index = 0; index < bytes.length; index += 1) bytes[index] = index % 16 === 0 ? 0xff : (index % 16) * 17;
      return array;
    });
    expect(randomUuid()).toBe('ff112233-4455-4677-8899-aabbccddeeff');
    expect(randomUuid()).toBe('ff112233-4455-4677-8899-aabbccddeeff');
  });

  it('draws random values once for 256 UUIDs', async () => {
    const randomUuid = await freshRandomUuid();
    const draw = vi.spyOn(globalThis.crypto, 'getRandomValues');
    for (let index = 0; index < 256; index += 1) randomUuid();
    expect(draw).toHaveBeenCalledTimes(1);
    randomUuid();
    expect(draw).toHaveBeenCalledTimes(2);
  });

  it('gives undefined without Web Crypto', async () => {
    vi.stubGlobal('crypto', undefined);
    const randomUuid = await freshRandomUuid();
    expect(randomUuid()).toBeUndefined();
  });
});
