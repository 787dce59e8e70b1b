import fc from 'fast-check';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { timestamp, timestampMessage, userTimestamp } from '../../src/schemas/common.js';

// The SDK checks ISO strings with its own few lines instead of zod's ISO formats (for the
// bundle's size); a caller must see no difference: the same strings accepted, the same issues.
const validDate = z.date().check(z.refine((d) => !Number.isNaN(d.getTime()), 'must be a valid Date'));
const zodDateTime = z.iso.datetime({ offset: true, error: (issue) => timestampMessage(issue.input, false) });
const zodDate = z.iso.date();
// The schemas as they were with zod's ISO formats (and the SDK's messages).
const zodTimestamp = z.pipe(
  z.union([validDate, zodDateTime], { error: (issue) => timestampMessage(issue.input, false) }),
  z.transform((value) => new Date(value).toISOString()),
);
const zodUserTimestamp = z.pipe(
  z.union([validDate, zodDateTime, zodDate], { error: (issue) => timestampMessage(issue.input, true) }),
  z.transform((value) => (value instanceof Date ? value.toISOString() : value)),
);

/** What a caller sees: the value out, or the issues. */
const outcome = (schema: z.ZodMiniType, value: unknown) => {
  const result = z.safeParse(schema, value);
  return result.success ? { data: result.data } : { issues: result.error.issues.map(({ code, path, message }) => ({ code, path, message })) };
};

const EDGES = [
  '2026-01-01', '2024-02-29', '2026-02-29', '2000-02-29', '1900-02-29', '0000-02-29', '2026-04-31', '2026-13-01',
  '2026-00-10', '2026-01-00', '20260-01-01', ' 2026-01-01', '2026-01-01\n', '2026-1-01',
  '2026-01-01T00:00:00Z', '2026-01-01T23:59:59.123456+02:00', '2026-01-01T10:00:00-00:00', '2024-02-29T12:00:00Z',
  '2026-02-29T12:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T10:00Z', '2026-01-01T10:00:60Z', '2026-01-01T10:00:00',
  '2026-01-01t10:00:00z', '2026-01-01T10:00:00.Z', '2026-01-01T10:00:00+2:00', '2026-01-01T10:00:00+24:00', '',
];

/** Strings shaped like dates and date-times, most of them near the edges of each field. */
const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const date = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32))
  .map(([year, month, day]) => `${String(year).padStart(4, '0')}-${month}-${day}`);
const dateTime = fc
  .tuple(date, two(24), two(60), two(60), fc.constantFrom('', '.5', '.123'), fc.constantFrom('Z', '', '+', '-'), two(24), two(60))
  .map(([day, h, m, s, fraction, zone, oh, om]) => `${day}T${h}:${m}:${s}${fraction}${zone === '+' || zone === '-' ? `${zone}${oh}:${om}` : zone}`);

describe('timestamps: the ISO checks', () => {
  it.each(EDGES)('%j is taken or refused as zod ISO formats would', (text) => {
    expect(outcome(timestamp, text)).toEqual(outcome(zodTimestamp, text));
    expect(outcome(userTimestamp, text)).toEqual(outcome(zodUserTimestamp, text));
  });

  it.each([new Date(Number.NaN), new Date(0)])('the Date %s is taken or refused as before', (date) => {
    expect(outcome(timestamp, date)).toEqual(outcome(zodTimestamp, date));
    expect(outcome(userTimestamp, date)).toEqual(outcome(zodUserTimestamp, date));
  });

  it('agree with zod on generated dates and date-times', () => {
    fc.assert(
      fc.property(fc.oneof(date, dateTime), (text) => {
        expect(outcome(timestamp, text)).toEqual(outcome(zodTimestamp, text));
        expect(outcome(userTimestamp, text)).toEqual(outcome(zodUserTimestamp, text));
      }),
      { numRuns: 5_000 },
    );
  });
});
