import { afterEach, describe, expect, it, vi } from 'vitest';
import { newId } from './ids.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('newId', () => {
  it('gives version 4 UUIDs, all different, across many refills of its random pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads its random bits: every hex digit appears at every random place', () => {
    const ids = Array.from({ length: 2_000 }, () => newId());
    for (const place of [0, 7, 9, 15, 20, 35]) {
      expect(new Set(ids.map((id) => id[place])).size).toBe(16);
    }
  });

  it('draws its random bytes from Web Crypto, a pool at a time', () => {
    const draw = vi.spyOn(globalThis.crypto, 'getRandomValues');
    for (let n = 0; n < 600; n += 1) newId();
    // 600 ids of 16 bytes from pools of 4,096: at most 4 draws, wherever the pool stood.
    expect(draw.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(draw.mock.calls.length).toBeLessThanOrEqual(4);
  });

  it('still gives distinct ids without Web Crypto', () => {
    vi.stubGlobal('crypto', undefined);
    const ids = Array.from({ length: 1_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^id-[0-9a-z]+-[0-9a-z]+-[0-9a-z]+$/);
  });
});
