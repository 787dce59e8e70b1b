import { CliError } from '../failure.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * A `--from` or `--to` as a moment: a date (`2026-10-01`, midnight UTC) or a date-time
 * with its zone (`2026-10-01T09:30:00Z`, `…+02:00`). Anything else, or a day that does
 * not exist (`2026-02-30`), is a usage error naming the flag.
 *
 * @example
 * ```ts
 * parseDateFlag('--from', '2026-10-01'); // Date.parse('2026-10-01T00:00:00.000Z')
 * ```
 */
export function parseDateFlag(flag: string, text: string): number {
  const day = DATE.exec(text);
  const time = day !== null ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  // Date.UTC rolls 2026-02-30 over into March: the day must read back as written.
  const exists = day === null || new Date(time).toISOString().slice(0, 10) === text;
  if (Number.isNaN(time) || !exists) {
    throw new CliError(
      `${flag} ${JSON.stringify(text)} is not a date: write a day (2026-10-01, midnight UTC) or a date-time with its zone (2026-10-01T09:30:00Z)`,
    );
  }
  return time;
}
