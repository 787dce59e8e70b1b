/**
 * A value that follows an asynchronous call chain: the runtime's `AsyncLocalStorage` where
 * it has one, found without a static `node:` import so that every entry still loads in
 * browsers and workers.
 */

/** What is used of `AsyncLocalStorage`. */
interface Storage<T> {
  run<R>(value: T, fn: () => R): R;
  getStore(): T | undefined;
}

type StorageClass = new <T>() => Storage<T>;

/**
 * The runtime's `AsyncLocalStorage` class: Node >= 20.16, Bun and Deno have
 * `process.getBuiltinModule`; Cloudflare Workers with `nodejs_compat` have it too, and
 * some runtimes put the class on `globalThis`. `undefined` elsewhere (browsers, Node < 20.16).
 */
function findStorageClass(): StorageClass | undefined {
  const scope = globalThis as {
    process?: { getBuiltinModule?: (id: string) => unknown };
    AsyncLocalStorage?: unknown;
  };
  try {
    const hooks = scope.process?.getBuiltinModule?.('node:async_hooks') as { AsyncLocalStorage?: unknown } | undefined;
    const found = hooks?.AsyncLocalStorage ?? scope.AsyncLocalStorage;
    return typeof found === 'function' ? (found as StorageClass) : undefined;
  } catch {
    // A runtime whose getBuiltinModule refuses the module: no propagation.
    return undefined;
  }
}

/**
 * A value set for the duration of a function and everything it starts.
 * @example
 * ```ts
 * const context = asyncContext<string>();
 * context.run('user-1', async () => {
 *   await somethingElse();
 *   context.get(); // 'user-1'
 * });
 * ```
 */
export interface AsyncContext<T> {
  /** Runs `fn` with `value` as the current value; returns what `fn` returns. */
  run<R>(value: T, fn: () => R): R;
  /** The current value, or `undefined` outside any `run`. */
  get(): T | undefined;
  /**
   * Whether the value follows `await`s and callbacks (an `AsyncLocalStorage` was found).
   * Without one, the value holds only until `fn` first returns or awaits.
   */
  readonly propagates: boolean;
}

/** Without `AsyncLocalStorage`: the value holds during the synchronous part of `fn`. */
class SynchronousContext<T> implements AsyncContext<T> {
  readonly propagates = false;
  #current: T | undefined;

  run<R>(value: T, fn: () => R): R {
    const previous = this.#current;
    this.#current = value;
    try {
      return fn();
    } finally {
      this.#current = previous;
    }
  }

  get(): T | undefined {
    return this.#current;
  }
}

/**
 * A new context: one `AsyncLocalStorage` when the runtime has it, else a synchronous one.
 * @example
 * ```ts
 * const ambient = asyncContext<{ userId: string }>();
 * ```
 */
export function asyncContext<T>(): AsyncContext<T> {
  const Storage = findStorageClass();
  if (Storage === undefined) return new SynchronousContext<T>();
  const storage = new Storage<T>();
  return {
    propagates: true,
    run: (value, fn) => storage.run(value, fn),
    get: () => storage.getStore(),
  };
}
