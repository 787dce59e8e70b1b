const RESOLVED = /* @__PURE__ */ Promise.resolve();

/**
 * Runs `task` on the microtask queue, as `queueMicrotask` does, at a promise reaction's
 * cost. Node's `queueMicrotask` makes an `AsyncResource` and a bound function for each
 * call, ~750 bytes: the recorder queues one for every conversation it lets go, and a wave
 * of 100,000 filled the young generation with them. `task` must not throw (a throw would
 * become an unhandled rejection, not an uncaught exception).
 *
 * @example
 * ```ts
 * microtask(() => pump()); // after the caller's synchronous work
 * ```
 */
export function microtask(task: () => void): void {
  void RESOLVED.then(task);
}
