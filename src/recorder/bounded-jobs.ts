import { microtask } from '../utils/microtask.js';
import { Fifo } from './fifo.js';
import { startTimer } from './timers.js';

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
  /** The clock of not-before times ({@link BoundedJobs.add}). */
  now?: (() => number) | undefined;
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
 *
 * A job may have a not-before time: it is numbered (a flush waits for it) and counted at
 * once, and waits for its time on one timer for all such jobs.
 */
export class BoundedJobs<T> {
  readonly #options: BoundedJobsOptions<T>;
  readonly #waiting = new Fifo<{ item: T; number: number }>();
  /** Jobs whose not-before time has not come, in the order of their times (see {@link BoundedJobs.add}). */
  readonly #later = new Fifo<{ item: T; number: number; due: number }>();
  #laterTimer: ReturnType<typeof setTimeout> | undefined;
  #running = 0;
  #startScheduled = false;
  readonly #settled = new Progress();
  readonly #handedOver = new Progress();
  /** Who waits for a free place ({@link BoundedJobs.whenRoom}), first come first served. */
  #roomWaits: (() => void)[] = [];

  constructor(options: BoundedJobsOptions<T>) {
    this.#options = options;
  }

  add(item: T, notBefore = 0): void {
    const number = this.#settled.begin();
    this.#handedOver.begin();
    if (notBefore > this.#now()) {
      // Not-before times are added in their order (one delay for all: `settleMs`).
      this.#later.push({ item, number, due: notBefore });
      this.#laterTimer ??= startTimer(this.#due, notBefore - this.#now(), { keepAlive: true });
      return;
    }
    this.#waiting.push({ item, number });
    if (!this.#startScheduled) {
      this.#startScheduled = true;
      microtask(this.#start);
    }
  }

  /** The jobs whose not-before time has come, or all of them (`all`: shutdown's deadline passed), join the others. */
  readonly #due = (all = false): void => {
    clearTimeout(this.#laterTimer);
    this.#laterTimer = undefined;
    const now = this.#now();
    for (let next = this.#later.first; next !== undefined && (all || next.due <= now); next = this.#later.first) {
      this.#later.shift();
      this.#waiting.push({ item: next.item, number: next.number });
    }
    const next = this.#later.first;
    if (next !== undefined) this.#laterTimer = startTimer(this.#due, next.due - now, { keepAlive: true });
    this.#start();
  };

  /** Every job waiting for its not-before time goes on now. */
  dueAll(): void {
    if (this.#later.length > 0) this.#due(true);
  }

  #now(): number {
    return (this.#options.now ?? (() => performance.now()))();
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

/**
 * Numbered jobs and which of them are over, in O(1) each: waiting for "everything begun
 * before now" needs no promise per job, only a number, so that thousands of jobs waiting
 * their turn cost the heap next to nothing.
 *
 * @example
 * ```ts
 * const progress = new Progress();
 * const job = progress.begin();
 * const done = progress.whenDone(); // resolves once `job` is over
 * progress.finish(job);
 * ```
 */
export class Progress {
  /** The number the next job gets. */
  #next = 0;
  /** Every job below it is over. */
  #low = 0;
  /** Jobs over, at or above `#low`. */
  readonly #over = new Set<number>();
  /** Waits, in the order of their targets (each the `#next` of its call). */
  #waits: { target: number; resolve: () => void }[] = [];

  /** Numbers a new job. */
  begin(): number {
    const job = this.#next;
    this.#next += 1;
    return job;
  }

  /** Marks `job` over, and resolves the waits it was the last job of. */
  finish(job: number): void {
    if (job === this.#low) {
      // Jobs nearly always end in the order begun: the set is then never touched (adding
      // and deleting one number a job churned its table, ~230 bytes each).
      this.#low += 1;
      if (this.#over.size > 0) while (this.#over.delete(this.#low)) this.#low += 1;
    } else {
      this.#over.add(job);
    }
    let woken = 0;
    while (woken < this.#waits.length && (this.#waits[woken] as { target: number }).target <= this.#low) {
      (this.#waits[woken] as { resolve: () => void }).resolve();
      woken += 1;
    }
    if (woken > 0) this.#waits = this.#waits.slice(woken);
  }

  /** How many jobs are begun and not over. */
  get count(): number {
    return this.#next - this.#low - this.#over.size;
  }

  /** Resolves once every job begun before the call is over. */
  whenDone(): Promise<void> {
    if (this.#low >= this.#next) return Promise.resolve();
    return new Promise((resolve) => this.#waits.push({ target: this.#next, resolve }));
  }
}
