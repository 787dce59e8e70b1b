import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

function expected(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

describe('isoTime', () => {
  it('gives what toISOString gives, for any time Date holds', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(isoTime(ms)).toBe(expected(ms));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives what toISOString gives around now, many times within the same seconds', () => {
    const now = Date.parse('2026-11-24T07:00:00.000Z');
    fc.assert(
      fc.property(fc.integer({ min: now - 200_000, max: now + 200_000 }), (ms) => {
        expect(isoTime(ms)).toBe(expected(ms));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([0, -0, -1, -999, -1000, -1001, 999, 1000, 8.64e15, -8.64e15, 253402300799999, 253402300800000, -62198755200001])(
    'gives %d as toISOString does',
    (ms) => {
      expect(isoTime(ms)).toBe(expected(ms));
    },
  );

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 8.64e15 + 1, -8.64e15 - 1])('gives undefined for %d', (ms) => {
    expect(isoTime(ms)).toBeUndefined();
  });

  it('gives a fractional time as Date does, cut toward zero', () => {
    for (const ms of [1.5, -1.5, 1999.999, -0.5, 1_764_000_000_000.25]) expect(isoTime(ms)).toBe(expected(ms));
  });
});
