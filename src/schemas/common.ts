import * as z from 'zod/mini';
import { capIssues } from './issues.js';

/** A non-empty string: identifiers, model names, sources. */
export const nonEmptyString = z.string().check(z.minLength(1, 'must not be empty'));

/** A count of tokens, or a cost in micro-dollars: a whole number, zero or more. */
export const nonNegativeInt = z.int().check(z.nonnegative('must be zero or more'));

/**
 * Key-value tags. The service's samples are all strings and custom tags become string
 * filters in the platform, so values are strings.
 */
export const tags = z.record(z.string(), z.string()).check(capIssues);

const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();
const validDate = z.date().check(
  z.refine((d) => !Number.isNaN(d.getTime()), 'must be a valid Date'),
);

function toIsoString(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * An interaction timestamp: a `Date` or an ISO 8601 date-time string (with `Z` or an
 * offset) in; out, the UTC form of `Date.prototype.toISOString()`, which is what the
 * service's own examples send.
 */
export const timestamp = z.pipe(
  z.union([validDate, isoDateTime], {
    error: 'must be a Date or an ISO 8601 date-time string',
  }),
  z.transform((value) => new Date(value).toISOString()),
);

/**
 * A user-record timestamp: the service's samples are calendar dates (`2026-01-01`), so a
 * date, a date-time or a `Date` is accepted; strings go out as given, a `Date` as ISO 8601.
 */
export const userTimestamp = z.pipe(
  z.union([validDate, isoDateTime, isoDate], {
    error: 'must be a Date or an ISO 8601 date or date-time string',
  }),
  z.transform(toIsoString),
);
