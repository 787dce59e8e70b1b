/**
 * Timestamps as the wire wants them, `Date.prototype.toISOString()`'s form, made cheaply:
 * every ended interaction has two, and `toISOString` took ~350 ns each, a few per cent
 * of a delivered conversation's CPU.
 */

/** The largest distance from the epoch a `Date` holds, ms. */
const MAX_DATE_MS = 8.64e15;

/** `'000Z'` … `'999Z'`: the end of every timestamp, shared by all. */
const MILLIS_Z = Array.from({ length: 1000 }, (_, milli) => `${String(milli).padStart(3, '0')}Z`);

/**
 * `'YYYY-MM-DDTHH:MM:SS.'` of the seconds seen lately: interactions ended together, and
 * the two ends of one, mostly fall in a few seconds. Bounded: emptied when full.
 */
const secondPrefixes = new Map<number, string>();
const MAX_SECONDS_KEPT = 64;

function viaDate(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * `ms` as ISO 8601 UTC, exactly as `new Date(ms).toISOString()` gives it; `undefined`
 * for a clock that gave NaN or a time out of Date's range. The second's part is made
 * once and shared: each timestamp is that prefix joined to a shared `'mmmZ'`, which also
 * holds less heap than a string of its own (V8 keeps the join as a pair of references).
 *
 * @example
 * ```ts
 * isoTime(0); // '1970-01-01T00:00:00.000Z'
 * isoTime(Number.NaN); // undefined
 * ```
 */
export function isoTime(ms: number): string | undefined {
  if (!Number.isInteger(ms) || ms > MAX_DATE_MS || ms < -MAX_DATE_MS) return viaDate(ms);
  const second = Math.floor(ms / 1000);
  let prefix = secondPrefixes.get(second);
  if (prefix === undefined) {
    // The second's start is within Date's range whenever `ms` is.
    prefix = (viaDate(second * 1000) as string).slice(0, -4);
    if (secondPrefixes.size >= MAX_SECONDS_KEPT) secondPrefixes.clear();
    secondPrefixes.set(second, prefix);
  }
  return prefix.concat(MILLIS_Z[ms - second * 1000] as string);
}
