/**
 * The windows of `interactions.export`: a range is asked in consecutive windows
 * `[t, t + 7 days)`, the longest the service answers, the last one cut at `to`. The range
 * is checked by the typed call's module, loaded with zod at the first iteration.
 */
import type { HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/request-options.js';
import { AbortError } from '../core/errors.js';

import type { ExportedInteraction } from '../types/reading.js';
import { EXPORT_WINDOW_MS } from '../schemas/wire-fields.js';

/**
 * One window of an export, once asked: where it is in the range, and its interactions.
 *
 * @example
 * ```ts
 * for await (const window of nebuly.interactions.export({ from, to }).windows()) {
 *   console.log(`${window.index + 1}/${window.count}`, window.start, window.items.length);
 * }
 * ```
 */
export interface ExportWindow {
  /** Its place among the windows of the range, from 0. */
  index: number;
  /** How many windows the range has. */
  count: number;
  /** Its first moment, included, ISO 8601 in UTC. */
  start: string;
  /** The moment after it, excluded, ISO 8601 in UTC: the next window's `start`. */
  end: string;
  /** Its interactions, as the service answered them. */
  items: ExportedInteraction[];
}

/**
 * The windows of a range, checked (a `ValidationError` names `from` or `to`, nothing
 * sent): consecutive, each at most 7 days, none overlapping, the last ending at `to`.
 *
 * @example
 * ```ts
 * await windowsOf({ from: '2026-10-01T00:00:00Z', to: '2026-10-10T00:00:00Z' });
 * // [{ start: '2026-10-01T00:00:00.000Z', end: '2026-10-08T00:00:00.000Z' }, { start: '2026-10-08T…', end: '2026-10-10T…' }]
 * ```
 */
export async function windowsOf(range: unknown): Promise<{ start: string; end: string }[]> {
  const { checkExportRange } = await import('../core/typed-call.js');
  const { from, to } = checkExportRange(range);
  const end = Date.parse(to);
  const windows: { start: string; end: string }[] = [];
  for (let start = Date.parse(from); start < end; start += EXPORT_WINDOW_MS) {
    windows.push({ start: new Date(start).toISOString(), end: new Date(Math.min(start + EXPORT_WINDOW_MS, end)).toISOString() });
  }
  return windows;
}

/**
 * Asks each window of the range in order, one at a time, each a call retried like any
 * other; stops with an `AbortError` as soon as `options.signal` aborts.
 *
 * @example
 * ```ts
 * for await (const window of exportWindows(http, { from, to }, { signal })) write(window.items);
 * ```
 */
export async function* exportWindows(http: HttpCore, range: unknown, options: RequestOptions): AsyncGenerator<ExportWindow> {
  const windows = await windowsOf(range);
  const { signal } = options;
  for (const [index, { start, end }] of windows.entries()) {
    if (signal?.aborted === true) throw new AbortError(`the export was aborted before window ${index + 1} of ${windows.length}`);
    const items = await http.call('exportInteractions', { date_gte: start, date_lt: end }, options);
    yield { index, count: windows.length, start, end, items };
  }
}
