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
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    const stop = (reason: unknown) => {
      reject(reason);
      controller.abort(reason);
    };
    if (timeoutMs > 0) timer = setTimeout(() => stop(ATTEMPT_TIMED_OUT), timeoutMs);
    if (signal !== undefined) {
      onAbort = () => stop(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  stopped.catch(() => undefined);
  try {
    return await Promise.race([send(controller.signal), stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}
