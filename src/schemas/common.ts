import * as z from 'zod/mini';
import { capIssues } from './issues.js';
import { PROTO_TAG_MESSAGE } from './plain-checks.js';

/** A non-empty string: identifiers, model names, sources. */
export const nonEmptyString = z.string().check(z.minLength(1, 'must not be empty'));

/** A count of tokens, or a cost in micro-dollars: a whole number, zero or more. */
export const nonNegativeInt = z.int().check(z.nonnegative('must be zero or more'));

/**
 * Refuses an own `__proto__` key by name. zod's record, like an object spread, would
 * leave it out of its copy without a word, so the tag would vanish from the wire.
 */
const noProtoKey = z.custom<Record<string, string>>().check((payload) => {
  const value = payload.value;
  if (typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, '__proto__')) {
    payload.issues.push({ code: 'custom', path: ['__proto__'], message: PROTO_TAG_MESSAGE, input: value });
  }
});

/**
 * Key-value tags. The service's samples are all strings and custom tags become string
 * filters in the platform, so values are strings. A tag named `__proto__` is refused by
 * name rather than dropped.
 */
export const tags = z.pipe(noProtoKey, z.record(z.string(), z.string()).check(capIssues));

/**
 * The A/B-test feature flags an interaction was recorded under (`interaction.feature_flag`,
 * a list despite its singular name): the flags asked of `/variants`.
 */
export const featureFlags = z.array(nonEmptyString).check(capIssues);

/** Days in each month of a common year; February gains one in a leap year. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** `YYYY-MM-DD` naming a day of the Gregorian calendar (no February 30th). */
function isIsoDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** RFC 3339: a date, `T`, a time with seconds and optional fraction, then `Z` or an offset. */
function isIsoDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  return match !== null && isIsoDate(match[1]!);
}

// The same checks and issues (`invalid_format`, `datetime` / `date`) as `z.iso.datetime()`
// and `z.iso.date()`, in a few lines: zod's ISO formats and their regexes weigh 800 B
// gzipped in a user's bundle, on the client's path.
const isoDateTime = z.stringFormat('datetime', isIsoDateTime, { error: (issue) => timestampMessage(issue.input, false) });
const isoDate = z.stringFormat('date', isIsoDate);
// `z.superRefine`, as the other schemas' own checks: `z.refine` for this one check would
// add its own code to a user's bundle.
const validDate = z.date().check(
  z.superRefine((date, ctx) => {
    if (Number.isNaN(date.getTime())) ctx.issues.push({ code: 'custom', message: 'must be a valid Date', input: date });
  }),
);

function toIsoString(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : value;
}

/** A date-time with no `Z` and no offset: which instant it names depends on where it is read. */
const DATE_TIME_WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/i;

const ADD_A_ZONE = 'has no time zone: add `Z` for UTC or an offset such as `+02:00` (2026-01-01T09:30:00Z)';

/**
 * What is wrong with a value that is no timestamp, in words that say what to write: a
 * string (from a CSV, a JSON file) gets an example, not "a Date", which a file cannot hold.
 * `dateAllowed`: user records also take a date alone.
 *
 * @example
 * ```ts
 * timestampMessage('2026-01-01T09:30:00', false); // 'has no time zone: add `Z` for UTC or …'
 * ```
 */
export function timestampMessage(input: unknown, dateAllowed: boolean): string {
  if (input === undefined) return 'is required';
  if (input instanceof Date) return 'must be a valid Date (got an Invalid Date)';
  if (typeof input !== 'string') {
    const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    return `must be a Date or an ISO 8601 ${dateAllowed ? 'date or date-time' : 'date-time'} string (got ${got})`;
  }
  if (DATE_TIME_WITHOUT_ZONE.test(input.trim())) return dateAllowed ? `${ADD_A_ZONE}, or give the date alone (2026-01-01)` : ADD_A_ZONE;
  if (!dateAllowed && DATE.test(input.trim())) return 'must be a date-time, not a date: add the time and `Z` (2026-01-01T09:30:00Z)';
  return dateAllowed
    ? 'must be an ISO 8601 date (2026-01-01) or date-time with `Z` or an offset (2026-01-01T09:30:00Z)'
    : 'must be an ISO 8601 date-time with `Z` or an offset (2026-01-01T09:30:00Z)';
}

/**
 * An interaction timestamp: a `Date` or an ISO 8601 date-time string (with `Z` or an
 * offset) in; out, the UTC form of `Date.prototype.toISOString()`, which is what the
 * service's own examples send.
 */
export const timestamp = z.pipe(
  z.union([validDate, isoDateTime], { error: (issue) => timestampMessage(issue.input, false) }),
  z.transform((value) => new Date(value).toISOString()),
);

/**
 * A user-record timestamp: the service's samples are calendar dates (`2026-01-01`), so a
 * date, a date-time or a `Date` is accepted; strings go out as given, a `Date` as ISO 8601.
 */
export const userTimestamp = z.pipe(
  z.union([validDate, isoDateTime, isoDate], { error: (issue) => timestampMessage(issue.input, true) }),
  z.transform(toIsoString),
);
