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
