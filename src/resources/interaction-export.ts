import type { HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/request-options.js';
import type { ExportedInteraction } from '../types/reading.js';
import { exportWindows, type ExportWindow } from './export-windows.js';

export type { ExportWindow } from './export-windows.js';

/** `params.signal`, read once; a read that throws leaves it to the range's check, which names `params`. */
function signalOf(params: unknown): unknown {
  try {
    return typeof params === 'object' && params !== null ? (params as { signal?: unknown }).signal : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every interaction of a range, asked in windows of at most 7 days (the service's
 * limit), in order: `for await` gives each interaction, `windows()` each window with its
 * place. Nothing is asked until iteration starts; each iteration asks again. An item on a
 * window's edge belongs to the window that starts there (`[start, end)`), so none is
 * given twice or missed. Each window is one call, retried like every call; the signal
 * (`params.signal`, or the request options') stops it with an `AbortError`.
 *
 * @example
 * ```ts
 * for await (const item of nebuly.interactions.export({ from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' })) {
 *   warehouse.insert(item);
 * }
 * ```
 */
export class InteractionExport implements AsyncIterable<ExportedInteraction> {
  readonly #http: HttpCore;
  readonly #params: unknown;
  readonly #options: RequestOptions;

  /** @internal Made by `nebuly.interactions.export()`. */
  constructor(http: HttpCore, params: unknown, options: RequestOptions | undefined) {
    this.#http = http;
    this.#params = params;
    const signal = signalOf(params);
    // The params' signal, unless the request options bring their own; checked with them.
    this.#options = signal === undefined ? (options ?? {}) : { signal: signal as AbortSignal, ...options };
  }

  /**
   * The windows, in order, each once asked: its place (`index` of `count`), its `start`
   * and `end`, its `items`. A window's items are all in memory at once; the next window
   * is asked when the loop comes back for it.
   *
   * @example
   * ```ts
   * for await (const { index, count, items } of nebuly.interactions.export({ from, to }).windows()) {
   *   console.error(`window ${index + 1}/${count}: ${items.length} interactions`);
   * }
   * ```
   */
  async *windows(): AsyncGenerator<ExportWindow> {
    yield* exportWindows(this.#http, this.#params, this.#options);
  }

  /** Every interaction of the range, window after window. */
  async *[Symbol.asyncIterator](): AsyncIterator<ExportedInteraction> {
    for await (const window of this.windows()) yield* window.items;
  }
}
