/**
 * A timestamp as accepted: a `Date`, or an ISO 8601 string. Interaction times need a
 * date-time with `Z` or an offset and are sent in UTC; user records also take a calendar
 * date (`2026-01-01`).
 *
 * @example
 * ```ts
 * const start: TimestampInput = new Date();
 * const end: TimestampInput = '2026-03-01T10:00:01Z';
 * ```
 */
export type TimestampInput = Date | string;

/**
 * Key-value tags: the key is the tag's name, the value its value. Custom tags become
 * filters in the platform, so values are strings.
 *
 * @example
 * ```ts
 * const tags: Tags = { country: 'IT', department: 'sales', age: '25-34' };
 * ```
 */
export type Tags = Record<string, string>;
