import { startTimer } from './timers.js';

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
