import { MAX_TIMER_DELAY_MS } from '../core/option-kinds.js';

export { MAX_TIMER_DELAY_MS };

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
