import { describe, expect, it } from 'vitest';
import { CliError } from '../failure.js';
import { parseDateFlag } from './dates.js';

describe('parseDateFlag', () => {
  it.each([
    ['2026-10-01', '2026-10-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2026-10-01T09:30:00Z', '2026-10-01T09:30:00.000Z'],
    ['2026-10-01T09:30:00.250+02:00', '2026-10-01T07:30:00.250Z'],
    ['2026-10-01T09:30Z', '2026-10-01T09:30:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(new Date(parseDateFlag('--from', text)).toISOString()).toBe(iso);
  });

  it.each(['2026-02-30', '2026-13-01', '2026-10-01T09:30:00', 'yesterday', '', '01/10/2026', '2026-10-01T25:00:00Z'])(
    'refuses %j with a usage error naming the flag',
    (text) => {
      expect(() => parseDateFlag('--to', text)).toThrow(CliError);
      expect(() => parseDateFlag('--to', text)).toThrow(`--to ${JSON.stringify(text)} is not a date`);
    },
  );
});
