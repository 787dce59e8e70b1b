/** What {@link Cutoff.race} answers when the cutoff passed before the work settled. */
export const CUT: unique symbol = Symbol('cut');

/**
 * The moment `shutdown()`'s deadline passes: from then on the recorder waits for no
 * store and no service. What it still holds is reported, with its payload, before
 * `shutdown()` resolves, so that a program may exit right after it.
 *
 * @example
 * ```ts
 * const cutoff = new Cutoff();
 * const claimed = await cutoff.race(store.claim(key, now, leaseMs));
 * if (claimed === CUT) report(new NebulyError(`not sent: ${cutoff.reason?.message}`));
 * ```
 */
export class Cutoff {
  /** Why it passed: set once it has. */
  reason: Error | undefined;
  /** Resolves once it passed. */
  readonly reached: Promise<typeof CUT>;
  #pass!: () => void;

  constructor() {
    this.reached = new Promise((resolve) => {
      this.#pass = () => resolve(CUT);
    });
  }

  get passed(): boolean {
    return this.reason !== undefined;
  }

  /** The deadline passed, for `reason`; once. */
  pass(reason: Error): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.#pass();
  }

  /** `work`'s value, or {@link CUT} once the cutoff passes first (at once when it has): a hung store call no longer holds shutdown. */
  race<T>(work: PromiseLike<T>): Promise<T | typeof CUT> {
    // What the work does once it is no longer waited for is of no interest: not unhandled.
    const settled = Promise.resolve(work);
    if (this.reason !== undefined) {
      settled.catch(() => undefined);
      return Promise.resolve(CUT);
    }
    return Promise.race([settled, this.reached]);
  }
}
