/** A recorder with conversations that a process exit would lose. */
export interface ExitWatcher {
  /** The event loop emptied (`beforeExit`): the last chance to send, asynchronously. */
  beforeExit(): void;
  /** The process is exiting (`exit`): nothing more can be sent; only say what was not. */
  exit(): void;
}

/** The part of Node's `process` the hook uses; Bun and Deno provide it too. */
interface ProcessEvents {
  on(event: 'beforeExit' | 'exit', listener: () => void): unknown;
  removeListener(event: 'beforeExit' | 'exit', listener: () => void): unknown;
}

function processEvents(): ProcessEvents | undefined {
  const globalProcess = (globalThis as { process?: Partial<ProcessEvents> }).process;
  return typeof globalProcess?.on === 'function' && typeof globalProcess.removeListener === 'function'
    ? (globalProcess as ProcessEvents)
    : undefined;
}

const watchers = new Set<ExitWatcher>();

// One pair of listeners for every recorder of the process, there only while one of them
// has something to lose: a process with many clients never passes Node's listener
// warning threshold, and a client that was dropped without `shutdown()` is not held.
const onBeforeExit = (): void => {
  for (const watcher of Array.from(watchers)) watcher.beforeExit();
};
const onExit = (): void => {
  for (const watcher of Array.from(watchers)) watcher.exit();
};

/**
 * Calls `watcher` when the process is about to exit, until {@link unwatchExit}. Returns
 * `false` where the runtime has no `process` events (browsers, workers): nothing can be
 * done at exit there. Listeners never keep the process alive.
 *
 * @example
 * ```ts
 * watchExit({ beforeExit: () => void recorder.shutdown(), exit: () => warnAboutUnsent() });
 * ```
 */
export function watchExit(watcher: ExitWatcher): boolean {
  const events = processEvents();
  if (events === undefined) return false;
  if (watchers.size === 0) {
    events.on('beforeExit', onBeforeExit);
    events.on('exit', onExit);
  }
  watchers.add(watcher);
  return true;
}

/**
 * Stops calling `watcher` at exit; the listeners go once no watcher is left.
 *
 * @example
 * ```ts
 * unwatchExit(watcher);
 * ```
 */
export function unwatchExit(watcher: ExitWatcher): void {
  if (!watchers.delete(watcher) || watchers.size > 0) return;
  const events = processEvents();
  events?.removeListener('beforeExit', onBeforeExit);
  events?.removeListener('exit', onExit);
}
