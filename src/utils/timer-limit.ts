/**
 * The longest delay `setTimeout` takes (2^31 - 1 ms, about 24.8 days); a longer one fires
 * at once in every runtime. Here, below both, so that the option checks (their ranges)
 * and the recorder's timers (their caps) read the one number without importing each other.
 *
 * @example
 * ```ts
 * setTimeout(callback, Math.min(delayMs, MAX_TIMER_DELAY_MS));
 * ```
 */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;
