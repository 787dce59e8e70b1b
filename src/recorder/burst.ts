import type { QueueFullError } from './errors.js';
import { startTimer } from './timers.js';

/**
 * Holds what the queue refused until the end of its burst: every refusal until the next
 * macrotask (a loop of `end()` calls, `shutdown()` ending what is open, a wave of idle
 * time-outs firing together) is handed over together, for one {@link QueueFullError}.
 *
 * @example
 * ```ts
 * const refused = new RefusalBurst<Delivery>((limit, deliveries) => report(new QueueFullError(…)));
 * refused.add(delivery, 'maxQueuedBytes');
 * ```
 */
export class RefusalBurst<T> {
  readonly #handOver: (limit: QueueFullError['limit'], refused: T[]) => void;
  #burst: { limit: QueueFullError['limit']; refused: T[]; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(handOver: (limit: QueueFullError['limit'], refused: T[]) => void) {
    this.#handOver = handOver;
  }

  add(item: T, limit: QueueFullError['limit']): void {
    if (this.#burst === undefined) {
      // Ref'd, so that a process exiting right after the burst still reports it; it
      // fires on the next turn of the event loop.
      const timer = startTimer(() => this.end(), 0, { keepAlive: true });
      this.#burst = { limit, refused: [], timer };
    }
    this.#burst.refused.push(item);
  }

  /** Hands over the current burst now, if there is one. */
  end(): void {
    const burst = this.#burst;
    if (burst === undefined) return;
    this.#burst = undefined;
    clearTimeout(burst.timer);
    this.#handOver(burst.limit, burst.refused);
  }
}
