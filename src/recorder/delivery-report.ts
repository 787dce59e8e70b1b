import type { ConversationStatus } from './outcome.js';

/**
 * What became of the conversations a `flush()` or `shutdown()` waited for, by outcome.
 * A flush counts each conversation ended since the previous flush's report (those still
 * being sent are waited for), once. `shutdown()` counts exactly those that had not met
 * their fate at its call, those it ends itself included. A conversation with nothing
 * recorded (`empty`) is not counted.
 *
 * - `delivered`: accepted by the service (2xx).
 * - `failed`: sent, but not accepted after the retries, or still unsent at `shutdown()`'s
 *   deadline; each went to `onError` as a `DeliveryError` with its payload.
 * - `dropped`: never sent: nothing recorded in it was valid, the queue was full, or it was
 *   refused at its start (an invalid `end_user`, or after `shutdown()`).
 *
 * @example
 * ```ts
 * const { delivered, failed, dropped } = await nebuly.shutdown();
 * if (failed + dropped > 0) console.warn(`${failed + dropped} conversation(s) not delivered`);
 * ```
 */
export interface DeliveryReport {
  delivered: number;
  failed: number;
  dropped: number;
}

/**
 * The outcomes counted for one report, as they settle.
 *
 * @example
 * ```ts
 * const tally = new Tally();
 * tally.add('delivered');
 * tally.report(); // { delivered: 1, failed: 0, dropped: 0 }
 * ```
 */
export class Tally {
  #delivered = 0;
  #failed = 0;
  #dropped = 0;

  add(status: ConversationStatus): void {
    if (status === 'delivered') this.#delivered += 1;
    else if (status === 'failed') this.#failed += 1;
    else if (status === 'dropped') this.#dropped += 1;
  }

  /** The counts so far, as a new object. */
  report(): DeliveryReport {
    return { delivered: this.#delivered, failed: this.#failed, dropped: this.#dropped };
  }
}
