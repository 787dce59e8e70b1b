/**
 * Whether `value` is a promise, or any object with a `then` method (what `await` waits
 * for): a store may answer with either, or with the value itself.
 *
 * @example
 * ```ts
 * const answer = store.claim(key, now, leaseMs);
 * const claim = isThenable(answer) ? await answer : answer;
 * ```
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
