import { MAX_TIMER_DELAY_MS } from '../utils/timer-limit.js';

/** Options of {@link startTimer}. */
export interface TimerOptions {
  /**
   * Keep the process alive until the timer fires or is cleared. For a wait the caller
   * awaits (the shutdown deadline), so that the process does not exit before it is over
   * when nothing else holds the event loop, e.g. a custom fetch that hangs without a
   * socket. Background timers (the idle time-out) leave this off.
   * @default false
   */
  keepAlive?: boolean | undefined;
}

/**
 * Whether `ms` is a period something runs on: the idle time-out and the sweep interval
 * take `0` or `Infinity` for never.
 *
 * @example
 * ```ts
 * if (isPeriod(idleTimeoutMs)) startTimer(expire, idleTimeoutMs);
 * ```
 */
export function isPeriod(ms: number): boolean {
  return ms > 0 && Number.isFinite(ms);
}

/**
 * Starts a timer that does not keep the process alive, unless `keepAlive` is set: in Node
 * and Bun the handle is unref'd, so a script whose work is done exits even while the
 * recorder waits; browsers, Deno and workers return a number and need nothing.
 */
export function startTimer(
  callback: () => void,
  delayMs: number,
  { keepAlive = false }: TimerOptions = {},
): ReturnType<typeof setTimeout> {
  const handle = setTimeout(callback, Math.min(Math.max(delayMs, 0), MAX_TIMER_DELAY_MS));
  if (!keepAlive) (handle as { unref?: () => void }).unref?.();
  return handle;
}

/**
 * Runs `task` every `intervalMs`, one run at a time (a tick that comes while the last run
 * is pending is skipped), on a timer that does not keep the process alive. `0` or
 * `Infinity`: never. Returns what stops it.
 *
 * @example
 * ```ts
 * const stop = startInterval(() => recorder.sweep(), 60_000);
 * stop(); // at shutdown
 * ```
 */
export function startInterval(task: () => Promise<unknown>, intervalMs: number): () => void {
  if (!isPeriod(intervalMs)) return () => undefined;
  let running = false;
  const handle = setInterval(() => {
    if (running) return;
    running = true;
    void task().finally(() => {
      running = false;
    });
  }, Math.min(intervalMs, MAX_TIMER_DELAY_MS));
  (handle as { unref?: () => void }).unref?.();
  return () => clearInterval(handle);
}

/**
 * A deadline `timeoutMs` from now (`Infinity`: none) that keeps the process alive until
 * it passes or is cleared: what `shutdown()` waits within, from the moment it is called.
 *
 * @example
 * ```ts
 * const deadline = new Deadline(20_000);
 * await Promise.race([work, deadline.expired]);
 * deadline.clear();
 * ```
 */
export class Deadline {
  /** Resolves when the deadline passes; never, once cleared first. */
  readonly expired: Promise<void>;
  readonly timeoutMs: number;
  readonly #handle: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
    let expire!: () => void;
    this.expired = new Promise<void>((resolve) => {
      expire = resolve;
    });
    this.#handle = Number.isFinite(timeoutMs) ? startTimer(expire, timeoutMs, { keepAlive: true }) : undefined;
  }

  /** Stops the timer: the process is no longer held for it. */
  clear(): void {
    clearTimeout(this.#handle);
  }
}

/** What {@link Cutoff.race} answers when the cutoff passed before the work settled. */
export const CUT: unique symbol = Symbol('cut');

/**
 * The moment `shutdown()`'s deadline passes: from then on the recorder waits for no
 * store and no service. What it still holds is reported, with its payload, before
 * `shutdown()` resolves, so that a program may exit right after it.
 *
 * @example
 * ```ts
 * const cutoff = new Cutoff();
 * const claimed = await cutoff.race(store.claim(key, now, leaseMs));
 * if (claimed === CUT) report(new NebulyError(`not sent: ${cutoff.reason?.message}`));
 * ```
 */
export class Cutoff {
  /** Why it passed: set once it has. */
  reason: Error | undefined;
  /** Resolves once it passed. */
  readonly reached: Promise<typeof CUT>;
  #pass!: () => void;

  constructor() {
    this.reached = new Promise((resolve) => {
      this.#pass = () => resolve(CUT);
    });
  }

  get passed(): boolean {
    return this.reason !== undefined;
  }

  /** The deadline passed, for `reason`; once. */
  pass(reason: Error): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.#pass();
  }

  /** `work`'s value, or {@link CUT} once the cutoff passes first (at once when it has): a hung store call no longer holds shutdown. */
  race<T>(work: PromiseLike<T>): Promise<T | typeof CUT> {
    // What the work does once it is no longer waited for is of no interest: not unhandled.
    const settled = Promise.resolve(work);
    if (this.reason !== undefined) {
      settled.catch(() => undefined);
      return Promise.resolve(CUT);
    }
    return Promise.race([settled, this.reached]);
  }
}

/**
 * Waits of one length, released in the order they began, on one timer for all of them
 * (10,000 ends waiting together hold one timer, not 10,000). The timer keeps the process
 * alive: what waits is work the program is waiting for.
 *
 * @example
 * ```ts
 * const line = new WaitLine(1_500, Date.now);
 * await line.wait(); // 1.5 s from now
 * ```
 */
export class WaitLine {
  readonly #ms: number;
  readonly #now: () => number;
  #waiting: { due: number; resolve: () => void }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** How many waits began, and how many were released: {@link WaitLine.passed} waits for a count. */
  #begun = 0;
  #released = 0;
  #passes: { target: number; resolve: () => void }[] = [];

  constructor(ms: number, now: () => number = () => performance.now()) {
    this.#ms = ms;
    this.#now = now;
  }

  /** How many wait. */
  get length(): number {
    return this.#waiting.length;
  }

  /** Resolves `ms` from now. */
  wait(): Promise<void> {
    this.#begun += 1;
    return new Promise((resolve) => {
      this.#waiting.push({ due: this.#now() + this.#ms, resolve });
      this.#timer ??= startTimer(this.#release, this.#ms, { keepAlive: true });
    });
  }

  /** Resolves once every wait begun before the call has been released. */
  passed(): Promise<void> {
    if (this.#released >= this.#begun) return Promise.resolve();
    const target = this.#begun;
    return new Promise((resolve) => this.#passes.push({ target, resolve }));
  }

  /** Releases every wait now (shutdown's deadline passed). */
  releaseAll(): void {
    this.#release(Number.POSITIVE_INFINITY);
  }

  readonly #release = (at = this.#now()): void => {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    let released = 0;
    while (released < this.#waiting.length && (this.#waiting[released] as { due: number }).due <= at) released += 1;
    const due = this.#waiting.slice(0, released);
    this.#waiting = this.#waiting.slice(released);
    this.#released += released;
    for (const { resolve } of due) resolve();
    const passes = this.#passes.filter((pass) => pass.target <= this.#released);
    if (passes.length > 0) this.#passes = this.#passes.filter((pass) => pass.target > this.#released);
    for (const { resolve } of passes) resolve();
    const next = this.#waiting[0];
    if (next !== undefined) this.#timer = startTimer(this.#release, Math.max(0, next.due - this.#now()), { keepAlive: true });
  };
}
