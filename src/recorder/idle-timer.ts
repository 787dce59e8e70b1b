import { startTimer } from './timers.js';

/** What an {@link IdleTimer} watches. */
export interface IdleTimerOptions {
  /** How long without activity counts as idle; `0` or `Infinity`: never. */
  timeoutMs: number;
  /** The clock, in milliseconds. */
  now: () => number;
  /** When the last activity was, by `now`. */
  lastActivityAt: () => number;
  /** Called once, when idle. */
  onIdle: () => void;
}

/**
 * Calls `onIdle` once nothing happened for `timeoutMs`. Activity is not reported to the
 * timer: the owner just moves its `lastActivityAt`, and the timer, when it fires early,
 * sleeps again for what is left. Recording a step thus costs a field write instead of a
 * `clearTimeout` and a `setTimeout`, which together cost more than the rest of the call.
 */
export class IdleTimer {
  readonly #options: IdleTimerOptions;
  #handle: ReturnType<typeof setTimeout> | undefined;

  constructor(options: IdleTimerOptions) {
    this.#options = options;
    const { timeoutMs } = options;
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) this.#arm(timeoutMs);
  }

  /** Stops watching; `onIdle` will not be called. */
  stop(): void {
    if (this.#handle !== undefined) clearTimeout(this.#handle);
    this.#handle = undefined;
  }

  #arm(delayMs: number): void {
    this.#handle = startTimer(this.#check, delayMs);
  }

  readonly #check = (): void => {
    const { timeoutMs, now, lastActivityAt, onIdle } = this.#options;
    const idleFor = now() - lastActivityAt();
    if (idleFor >= timeoutMs) {
      this.#handle = undefined;
      onIdle();
    } else {
      // A clock that went backwards gives a negative idle time, and one that returns NaN
      // no idle time at all: wait a full period then, rather than spin.
      this.#arm(Number.isFinite(idleFor) ? Math.max(1, timeoutMs - Math.max(0, idleFor)) : timeoutMs);
    }
  };
}
