import { afterEach, describe, expect, it, vi } from 'vitest';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A fresh copy of the module, and of the UUIDs' pool of random bytes. */
async function freshNewId(): Promise<() => string> {
  vi.resetModules();
  return (await import('./ids.js')).newId;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('newId', () => {
  it('gives a random UUID of version 4 where there is Web Crypto (utils/uuid.ts)', async () => {
    const newId = await freshNewId();
    const [first, second] = [newId(), newId()];
    expect(first).toMatch(UUID_V4);
    expect(second).toMatch(UUID_V4);
    expect(second).not.toBe(first);
  });

  it('falls back to a time, counter and random id without Web Crypto', async () => {
    vi.stubGlobal('crypto', undefined);
    const newId = await freshNewId();
    const [first, second] = [newId(), newId()];
    expect(first).toMatch(/^id-[0-9a-z]+-1-[0-9a-z]+$/);
    expect(second).toMatch(/^id-[0-9a-z]+-2-[0-9a-z]+$/);
  });
});
