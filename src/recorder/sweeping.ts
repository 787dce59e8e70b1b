import type { DeliveryReport } from './delivery-report.js';
import type { Sender } from './sending.js';
import { LANE, paced } from './slices.js';

/** How many conversations one sweep claims at a time: bounded work per store call. */
const SWEEP_BATCH = 100;

/** What a {@link Sweeper} needs. */
export interface SweeperOptions {
  sender: Pick<Sender, 'sweep'>;
  now: () => number;
  idleTimeoutMs: number;
  sweepIntervalMs: number;
  /** Resolves with the report once what was swept is sent (`nebuly.flush`). */
  flush: () => Promise<DeliveryReport>;
}

/**
 * Ends and sends the conversations of a shared store that are idle everywhere, or that a
 * sender left unsent (its lease expired): on `nebuly.sweep()`, and every
 * `sweepIntervalMs` while a shared store is in use (one sweep at a time).
 *
 * @example
 * ```ts
 * const sweeper = new Sweeper({ sender, now: Date.now, idleTimeoutMs: 60_000, sweepIntervalMs: 30_000, flush });
 * sweeper.start();
 * const delivery = await sweeper.sweep();
 * ```
 */
export class Sweeper {
  readonly #options: SweeperOptions;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: SweeperOptions) {
    this.#options = options;
  }

  /** Sweeps the store once, in batches, and resolves with the report of what it sent. Never rejects. */
  async sweep(): Promise<DeliveryReport> {
    const { now, idleTimeoutMs, sender, flush } = this.#options;
    if (idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs)) {
      const idleBefore = now() - idleTimeoutMs;
      // Until a claim finds nothing: each claims no more than can be built at once.
      while ((await sender.sweep(idleBefore, SWEEP_BATCH)) > 0) await paced(LANE.end);
    }
    return flush();
  }

  /** Sweeps every `sweepIntervalMs`, on a timer that does not keep the process alive. */
  start(): void {
    const { sweepIntervalMs } = this.#options;
    if (!(sweepIntervalMs > 0 && Number.isFinite(sweepIntervalMs))) return;
    let sweeping = false;
    this.#timer = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      void this.sweep().finally(() => {
        sweeping = false;
      });
    }, sweepIntervalMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }
}
