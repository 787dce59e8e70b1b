import { watchAbort } from './abort-watch.js';

/**
 * What an attempt's time-out rejects with; the attempt loop tells it from a network
 * failure by identity.
 *
 * @example
 * ```ts
 * if (failure === ATTEMPT_TIMED_OUT) console.log('no response in time');
 * ```
 */
export const ATTEMPT_TIMED_OUT = Symbol('attempt timed out');

/**
 * Watches one attempt: calls `stop` with {@link ATTEMPT_TIMED_OUT} once `timeoutMs` has
 * passed (`0`: never), or with the signal's reason once it aborts; returns what ends the
 * watch (the timer cleared, the listener removed), to call when the attempt settles.
 * Transports that can cut a request off themselves use it directly; anything else goes
 * through {@link withinTimeout}.
 *
 * @example
 * ```ts
 * const unwatch = watchAttempt(30_000, signal, (reason) => request.destroy(reason as Error));
 * ```
 */
export function watchAttempt(timeoutMs: number, signal: AbortSignal | undefined, stop: (reason: unknown) => void): () => void {
  const timer = timeoutMs > 0 ? setTimeout(() => stop(ATTEMPT_TIMED_OUT), timeoutMs) : undefined;
  const unwatch = signal === undefined ? undefined : watchAbort(signal, stop);
  return () => {
    clearTimeout(timer);
    unwatch?.();
  };
}

/**
 * Runs one attempt, headers and body, within `timeoutMs` (`0`: no limit): one timer,
 * cleared when the attempt settles. The time-out and the caller's signal abort the
 * attempt's own signal, given to `send`, and also end the attempt at once, so that a
 * custom fetch that ignores its signal holds nothing. Rejects with
 * {@link ATTEMPT_TIMED_OUT}, the caller signal's reason, or what `send` threw.
 *
 * @example
 * ```ts
 * const response = await withinTimeout((signal) => transport.send({ ...request, signal }), 30_000, callerSignal);
 * ```
 */
export async function withinTimeout<T>(
  send: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<T> {
  signal?.throwIfAborted();
  const controller = new AbortController();
  let unwatch!: () => void;
  const stopped = new Promise<never>((_resolve, reject) => {
    unwatch = watchAttempt(timeoutMs, signal, (reason) => {
      reject(reason);
      controller.abort(reason);
    });
  });
  stopped.catch(() => undefined);
  try {
    return await Promise.race([send(controller.signal), stopped]);
  } finally {
    unwatch();
  }
}
