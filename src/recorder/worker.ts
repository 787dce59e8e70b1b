import { microtask } from '../utils/microtask.js';
import { Fifo } from '../utils/fifo.js';
import { startTimer } from './timers.js';

// The recorder's worker: how its background work runs without slowing the host. Two
// parts: `pace`, which cuts all of it into slices between turns of the host's event loop,
// and `BoundedJobs`, which runs a stage's jobs a bounded number at a time. What work was
// accepted, and whether it met its fate, is the outbox's ledger (`outbox.ts`), not this.

/**
 * How long the recorder's background work may run before it yields to the host. What the
 * host sees is a slice plus the deliveries' continuations that follow it and any pause of
 * the garbage collector that falls in it. The pauses are the runtime's; the slice is the
 * part the SDK chooses: 1 ms leaves the most room for them, and the work takes as long
 * (decision 0003).
 */
export const SLICE_MS = 1;

/**
 * The most units of work in one slice: on runtimes whose clock stands still while code
 * runs (Cloudflare Workers), the time limit alone would never end a slice.
 */
const MAX_UNITS_PER_SLICE = 1_000;

const clock: () => number =
  typeof performance === 'object' && typeof performance.now === 'function' ? () => performance.now() : Date.now;

/**
 * Runs `next` after the host had its turn (its I/O, its timers): `setImmediate` where there
 * is one (Node, Bun), which neither fake nor clamped timers slow down, else a zero timer.
 */
const afterHost: (next: () => void) => void =
  typeof setImmediate === 'function' ? (next) => setImmediate(next) : (next) => setTimeout(next, 0);

/**
 * Which waiting work resumes first: the work nearest the wire. A conversation that is
 * being built into its body goes on before others begin, so that the first body reaches
 * the outbox after one conversation's work, not after every conversation's (the
 * network then works while the rest is built), and bodies are not built long before they
 * can be sent.
 */
export const LANE = {
  /** Building a claimed conversation's body, up to handing it to the outbox. */
  send: 0,
  /** Ending conversations: claiming them, letting them go at shutdown, sweeping. */
  end: 1,
  /** Checking and storing ended interactions. */
  store: 2,
} as const;

/** A lane of {@link LANE}. */
export type Lane = (typeof LANE)[keyof typeof LANE];

/** The current slice: when it began, and how many units it ran; `undefined` between slices. */
let slice: { start: number; units: number } | undefined;
/** Work that waits for the next slice, a queue per lane, each first come first served. */
let waiting: Fifo<() => void>[] = newLanes();
let resuming = false;

function newLanes(): Fifo<() => void>[] {
  return Object.values(LANE).map(() => new Fifo<() => void>());
}

/** Whether any work waits, in any lane. */
function anyWaiting(): boolean {
  for (const lane of waiting) if (lane.length > 0) return true;
  return false;
}

/** The first waiting work of the nearest lane that has any, taken off its queue. */
function takeNext(): (() => void) | undefined {
  for (const lane of waiting) {
    const next = lane.shift();
    if (next !== undefined) return next;
  }
  return undefined;
}

/** Begins a slice, which ends on its own once the host has had its next turn. */
function beginSlice(): { start: number; units: number } {
  const begun = { start: clock(), units: 0 };
  slice = begun;
  afterHost(() => {
    if (slice === begun) slice = undefined;
  });
  return begun;
}

function sliceOver(current: { start: number; units: number }): boolean {
  return clock() - current.start >= SLICE_MS || current.units >= MAX_UNITS_PER_SLICE;
}

/**
 * Resumes waiting work one at a time, each once the one before has run up to its next
 * wait, for as long as the slice lasts; then leaves the rest to the next turn of the host.
 */
function resumeWaiting(): void {
  resuming = false;
  const current = beginSlice();
  // Made once a slice, not once for each work resumed in it.
  const resumed = (): void => {
    if (!anyWaiting()) return;
    if (slice === current && !sliceOver(current)) next();
    else scheduleResume();
  };
  const next = (): void => {
    const resolve = takeNext();
    if (resolve === undefined) return;
    resolve();
    // After the resumed work's own continuation, which was queued first.
    microtask(resumed);
  };
  next();
}

function scheduleResume(): void {
  if (resuming) return;
  resuming = true;
  afterHost(resumeWaiting);
}

/**
 * The recorder's background work calls this between two small units of work (checking
 * one interaction, serializing one, ending one conversation). While the current slice is
 * shorter than {@link SLICE_MS} it answers `undefined`: go on at once, at no cost. Past
 * that it answers a promise to await, which resolves in a later slice, after the host
 * has run, so that the host's event loop is never blocked for longer than a slice, however
 * much work there is and however many jobs share it.
 *
 * A slice is the work done within one turn of the host's event loop. Every job of the
 * recorder shares it; jobs that wait are resumed one at a time, as long as the slice
 * lasts: those of the nearest {@link LANE} first, and in a lane in the order they began
 * to wait.
 *
 * @example
 * ```ts
 * for (const interaction of interactions) {
 *   check(interaction);
 *   const wait = pace(LANE.store);
 *   if (wait !== undefined) await wait;
 * }
 * ```
 */
export function pace(lane: Lane): Promise<void> | undefined {
  const current = slice ?? beginSlice();
  current.units += 1;
  if (!sliceOver(current) && !anyWaiting()) return undefined;
  return new Promise((resolve) => {
    (waiting[lane] as Fifo<() => void>).push(resolve);
    scheduleResume();
  });
}

/**
 * {@link pace} for an `await`: resolves at once while the slice lasts (one microtask),
 * after the host's turn past it.
 *
 * @example
 * ```ts
 * for (const item of items) {
 *   work(item);
 *   await paced(LANE.send);
 * }
 * ```
 */
export function paced(lane: Lane): Promise<void> {
  return pace(lane) ?? RESOLVED;
}

/** A promise already resolved: what work done at once answers where a promise is asked for. */
export const RESOLVED: Promise<void> = /* @__PURE__ */ Promise.resolve();

/**
 * Resolves in a later slice, after the host's turn, whatever the current slice has left:
 * for work that must not share a turn with what ran just before it (code that was just
 * loaded and compiled in one piece).
 *
 * @example
 * ```ts
 * await loadEngine();
 * await later(LANE.send); // the first requests go out in a turn of their own
 * ```
 */
export function later(lane: Lane): Promise<void> {
  return new Promise((resolve) => {
    (waiting[lane] as Fifo<() => void>).push(resolve);
    scheduleResume();
  });
}

/** @internal For tests: forgets waiting work and the current slice. */
export function resetSlices(): void {
  slice = undefined;
  waiting = newLanes();
  resuming = false;
}

/** What {@link BoundedJobs} runs, and what it calls after. */
export interface BoundedJobsOptions<T> {
  /** How many jobs run at a time; the rest wait as one small entry each. */
  max: number;
  /**
   * Runs one job. Its place frees when it calls `handOver` (its work that needs a place
   * is done, the rest only waits), or when it settles. Must not reject. A job done at
   * once answers {@link RESOLVED}: it is then over at once too.
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
 * of the heap would copy. A flush does not ask the jobs: each was numbered in the
 * outbox's ledger when its work was accepted.
 *
 * @example
 * ```ts
 * const jobs = new BoundedJobs<Taken>({ max: 32, run: (taken) => store(taken) });
 * jobs.add(taken);
 * ```
 *
 * A job may have a not-before time: it is counted at once, and waits for its time on one
 * timer for all such jobs.
 */
export class BoundedJobs<T> {
  readonly #options: BoundedJobsOptions<T>;
  readonly #waiting = new Fifo<T>();
  /** Jobs whose not-before time has not come, in the order of their times (see {@link BoundedJobs.add}). */
  readonly #later = new Fifo<{ item: T; due: number }>();
  #laterTimer: ReturnType<typeof setTimeout> | undefined;
  #running = 0;
  #startScheduled = false;
  /** Whether {@link BoundedJobs.#start}'s loop is running. */
  #starting = false;
  /** Added and not settled. */
  #count = 0;
  /** Added and not handed over (nor settled). */
  #unhanded = 0;
  /** Who waits for a free place ({@link BoundedJobs.whenRoom}), first come first served. */
  #roomWaits: (() => void)[] = [];

  constructor(options: BoundedJobsOptions<T>) {
    this.#options = options;
  }

  add(item: T, notBefore = 0): void {
    this.#count += 1;
    this.#unhanded += 1;
    // Most jobs have none: the clock is read only for those that do.
    if (notBefore > 0 && notBefore > this.#now()) {
      // Not-before times are added in their order (one delay for all: `settleMs`).
      this.#later.push({ item, due: notBefore });
      this.#laterTimer ??= startTimer(this.#due, notBefore - this.#now(), { keepAlive: true });
      return;
    }
    this.#waiting.push(item);
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
      this.#waiting.push(next.item);
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
    return this.#count;
  }

  /** How many jobs were added and have not handed over (nor settled). */
  get unhandedCount(): number {
    return this.#unhanded;
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

  readonly #start = (): void => {
    this.#startScheduled = false;
    // A job done at once frees its place within the loop below, which takes it up: not
    // started again from inside it, which would nest a frame for each job done at once.
    if (this.#starting) return;
    this.#starting = true;
    try {
      while (this.#running < this.#options.max && this.#waiting.length > 0) {
        this.#running += 1;
        this.#run(this.#waiting.shift() as T);
      }
    } finally {
      this.#starting = false;
    }
  };

  // Not async: a suspended frame per job would cost more than the one promise here.
  #run(item: T): void {
    let handed = false;
    const handOver = (): void => {
      if (handed) return;
      handed = true;
      this.#running -= 1;
      this.#unhanded -= 1;
      this.#start();
      // One at a time: the one woken takes the room it is told of.
      if (this.#roomWaits.length > 0 && this.#free() > 0) (this.#roomWaits.shift() as () => void)();
    };
    const over = (): void => {
      handOver();
      this.#count -= 1;
      this.#options.settled?.();
    };
    // The job's item is not kept while it runs: it may hold what the job no longer needs
    // (a conversation's records, once its body is built).
    const running = this.#options.run(item, handOver);
    // Done at once (an interaction checked and stored in memory, nearly always): over now,
    // without a reaction, a promise and a microtask for each.
    if (running === RESOLVED) over();
    else void running.then(over);
  }
}
