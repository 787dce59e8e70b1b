import { microtask } from '../utils/microtask.js';
import { Fifo } from './fifo.js';
import { Progress } from './progress.js';

/** What {@link BoundedJobs} runs, and what it calls after. */
export interface BoundedJobsOptions<T> {
  /** How many jobs run at a time; the rest wait as one small entry each. */
  max: number;
  /**
   * Runs one job. Its place frees when it calls `handOver` (its work that needs a place
   * is done, the rest only waits), or when it settles. Must not reject.
   */
  run: (item: T, handOver: () => void) => Promise<void>;
  /** Called when a job settled, once it no longer counts as running. */
  settled?: (() => void) | undefined;
}

/**
 * Jobs run at most `max` at a time, first come first served, started on the microtask
 * after they are added (the caller pays for a push). Thousands added together wait as
 * entries, not as suspended async functions with their promises, which every scavenge
 * of the heap would copy; waiting for "every job added before now" costs a number, not a
 * promise per job.
 *
 * @example
 * ```ts
 * const jobs = new BoundedJobs<Taken>({ max: 32, run: (taken) => store(taken) });
 * jobs.add(taken);
 * await jobs.settledAll(); // every job added before the call has settled
 * ```
 */
export class BoundedJobs<T> {
  readonly #options: BoundedJobsOptions<T>;
  readonly #waiting = new Fifo<{ item: T; number: number }>();
  #running = 0;
  #startScheduled = false;
  readonly #settled = new Progress();
  readonly #handedOver = new Progress();
  /** Who waits for a free place ({@link BoundedJobs.whenRoom}), first come first served. */
  #roomWaits: (() => void)[] = [];

  constructor(options: BoundedJobsOptions<T>) {
    this.#options = options;
  }

  add(item: T): void {
    const number = this.#settled.begin();
    this.#handedOver.begin();
    this.#waiting.push({ item, number });
    if (!this.#startScheduled) {
      this.#startScheduled = true;
      microtask(this.#start);
    }
  }

  /** How many jobs were added and have not settled. */
  get count(): number {
    return this.#settled.count;
  }

  /** How many jobs were added and have not handed over (nor settled). */
  get unhandedCount(): number {
    return this.#handedOver.count;
  }

  /**
   * Resolves, once a place is free (no job waiting, fewer than `max` running), with how
   * many are: for work that must start soon after it is taken, such as a conversation
   * claimed under a lease.
   */
  whenRoom(): Promise<number> {
    const free = this.#free();
    if (free > 0 && this.#roomWaits.length === 0) return Promise.resolve(free);
    return new Promise((resolve) => this.#roomWaits.push(() => resolve(this.#free())));
  }

  #free(): number {
    return this.#options.max - this.#running - this.#waiting.length;
  }

  /** Resolves once every job added before the call has settled. */
  settledAll(): Promise<void> {
    return this.#settled.whenDone();
  }

  /** Resolves once every job added before the call has handed over (or settled). */
  handedOverAll(): Promise<void> {
    return this.#handedOver.whenDone();
  }

  readonly #start = (): void => {
    this.#startScheduled = false;
    while (this.#running < this.#options.max && this.#waiting.length > 0) {
      const next = this.#waiting.shift() as { item: T; number: number };
      this.#running += 1;
      this.#run(next.item, next.number);
    }
  };

  // Not async: a suspended frame per job would cost more than the one promise here.
  #run(item: T, number: number): void {
    let handed = false;
    const handOver = (): void => {
      if (handed) return;
      handed = true;
      this.#running -= 1;
      this.#handedOver.finish(number);
      this.#start();
      // One at a time: the one woken takes the room it is told of.
      if (this.#roomWaits.length > 0 && this.#free() > 0) (this.#roomWaits.shift() as () => void)();
    };
    // The job's item is not kept while it runs: it may hold what the job no longer needs
    // (a conversation's records, once its body is built).
    void this.#options.run(item, handOver).then(() => {
      handOver();
      this.#settled.finish(number);
      this.#options.settled?.();
    });
  }
}
