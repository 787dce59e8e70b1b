/** Who waits for each signal's abort: one listener per signal, however many wait on it. */
const watching = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

/**
 * Calls `watcher` with the signal's reason when it aborts; returns what stops the watch.
 * Many watchers of one signal share a single `abort` listener, so that a signal shared
 * by every request of a client (the recorder aborts all its sends with one at the
 * shutdown deadline) never passes Node's warning of more than 10 listeners, and a watch
 * costs a set entry instead of an `EventTarget` listener. A signal that has aborted
 * already never calls a watcher added after: callers check `aborted` first.
 *
 * @example
 * ```ts
 * const unwatch = watchAbort(signal, (reason) => request.destroy());
 * // … once the request settles:
 * unwatch();
 * ```
 */
export function watchAbort(signal: AbortSignal, watcher: (reason: unknown) => void): () => void {
  let watchers = watching.get(signal);
  if (watchers === undefined) {
    const created = new Set<(reason: unknown) => void>();
    watching.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        watching.delete(signal);
        for (const watch of created) watch(signal.reason);
      },
      { once: true },
    );
    watchers = created;
  }
  const own = watchers;
  own.add(watcher);
  return () => {
    own.delete(watcher);
  };
}
