/** The longest delay `setTimeout` takes; a longer one fires at once in every runtime. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * Starts a timer that never keeps the process alive: in Node and Bun the handle is
 * unref'd, so a script whose work is done exits even while the recorder waits; browsers,
 * Deno and workers return a number and need nothing.
 */
export function startTimer(callback: () => void, delayMs: number): ReturnType<typeof setTimeout> {
  const handle = setTimeout(callback, Math.min(Math.max(delayMs, 0), MAX_TIMER_DELAY_MS));
  (handle as { unref?: () => void }).unref?.();
  return handle;
}
