import type { NebulyError } from '../core/errors.js';

/**
 * Wraps `onError` so that it can never break the recorder: a handler that throws, or
 * returns a rejected promise, is the user's bug, and there is nowhere left to report it.
 *
 * @example
 * ```ts
 * const report = safeReporter(init.onError);
 * ```
 */
export function safeReporter(onError: (error: NebulyError) => void): (error: NebulyError) => void {
  return (error) => {
    try {
      const returned: unknown = onError(error);
      if (returned instanceof Promise) returned.catch(() => undefined);
    } catch {
      // See above.
    }
  };
}
