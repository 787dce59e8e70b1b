import { NebulyError } from '../core/errors.js';
import { messageOf } from './errors.js';
import type { Stages, StagesInit } from './sending.js';

/** A use of the stages waiting for them: given the stages, or the error that kept them from loading. */
type Waiter = (stages: Stages | undefined, error: NebulyError) => void;

/**
 * The recorder's background stages (`connectStages` in `sending.ts`: storing, sending,
 * the outbox, late feedback and tags, and through them fitting, cropping, the worker and
 * the memory store),
 * loaded and connected the first time the recorder needs them: its first ended turn, feedback, tags,
 * flush, sweep or shutdown. A recorder that records nothing never loads them; a bundle
 * (docs/decisions/0004-pay-for-what-you-use.md) fetches them then; Node's ESM build loads
 * them then too, with the other lazy modules in one file (`scripts/one-lazy-file.ts`), and
 * its CommonJS build has them already (`scripts/eager-local-imports.ts`).
 *
 * What is asked of them before they are ready waits in the order it was asked, and runs
 * before anything asked later of the same conversation (its `key`) and before any use
 * of no conversation (a flush, a sweep, shutdown): a flush waits for what ended before
 * it, as when they are ready. Once they are loaded, what waits is handed over in slices,
 * and a use for a conversation with nothing waiting goes on at once meanwhile: a burst
 * that began while they loaded meets the stages' bounds (`maxQueuedBytes`), not a list
 * that grows as fast as the burst. If they cannot be loaded (a chunk a browser could not
 * fetch), that is reported once, and each use gives its `failed` result: nothing throws
 * into the caller.
 *
 * @example
 * ```ts
 * const stages = new LazyStages({ options, transport, report, mask, changed });
 * stages.run((ready) => ready.storing.take(conversation, record));
 * const report = await stages.use((ready) => ready.outbox.flush(), () => new Tally().report());
 * ```
 */
export class LazyStages {
  readonly #init: StagesInit;
  #ready: Stages | undefined;
  #failure: NebulyError | undefined;
  /** What waits for them, in the order it was asked; `undefined` when nothing does. */
  #waiting: Waiter[] | undefined;
  /** Loaded, what waits being handed over: uses of conversations with nothing waiting go on at once. */
  #loaded: Stages | undefined;
  /** How many of what waits were handed over. */
  #handedOver = 0;
  /** Where in what waits each conversation's last use is. */
  readonly #lastOf = new Map<string, number>();
  #sendsWaiting = 0;
  #storesWaiting = 0;

  constructor(init: StagesInit) {
    this.#init = init;
  }

  /** The stages, once loaded (`undefined` before). */
  get ready(): Stages | undefined {
    return this.#ready;
  }

  /** How many conversations ended wait for the stages to load, to be sent (see `sends` of {@link LazyStages.use}). */
  get sendsWaiting(): number {
    return this.#sendsWaiting;
  }

  /** How many ended interactions wait for the stages to load, to be stored (see `stores` of {@link LazyStages.run}). */
  get storesWaiting(): number {
    return this.#storesWaiting;
  }

  /**
   * Runs `use` with the stages: at once when they are ready, else once they are (nothing
   * when they cannot load). `stores`: `use` stores an ended interaction (counted in
   * {@link LazyStages.storesWaiting} while it waits, as unstored at exit).
   */
  run(use: (stages: Stages) => void, stores = false, key?: string): void {
    const ready = this.#readyFor(key);
    if (ready !== undefined) {
      use(ready);
      return;
    }
    if (this.#failure !== undefined) return;
    if (stores) this.#storesWaiting += 1;
    this.#wait((stages) => {
      if (stores) this.#storesWaiting -= 1;
      if (stages !== undefined) use(stages);
    }, key);
  }

  /**
   * Like {@link LazyStages.run}, with a result: `use`'s, or `failed`'s when the stages
   * cannot load. Never rejects. `sends`: `use` sends a conversation (counted in
   * {@link LazyStages.sendsWaiting} while it waits, as unsent at exit).
   */
  use<T>(use: (stages: Stages) => T | PromiseLike<T>, failed: (error: NebulyError) => T, sends = false, key?: string): Promise<T> {
    const ready = this.#readyFor(key);
    if (ready !== undefined) return Promise.resolve(use(ready));
    if (this.#failure !== undefined) return Promise.resolve(failed(this.#failure));
    if (sends) this.#sendsWaiting += 1;
    return new Promise<T>((resolve) => {
      this.#wait((stages, error) => {
        if (sends) this.#sendsWaiting -= 1;
        resolve(stages === undefined ? failed(error) : use(stages));
      }, key);
    });
  }

  /** The stages, if a use for the conversation `key` (none: a flush, a sweep, shutdown) may run now. */
  #readyFor(key: string | undefined): Stages | undefined {
    if (this.#ready !== undefined) return this.#ready;
    if (key === undefined || (this.#lastOf.get(key) ?? -1) >= this.#handedOver) return undefined;
    return this.#loaded;
  }

  #wait(then: Waiter, key: string | undefined): void {
    if (key !== undefined) this.#lastOf.set(key, this.#waiting?.length ?? 0);
    if (this.#waiting !== undefined) {
      this.#waiting.push(then);
      return;
    }
    this.#waiting = [then];
    import('./sending.js')
      .then(({ connectStages }) => connectStages(this.#init))
      .then(
        (stages) => void this.#settle(stages, undefined),
        (cause: unknown) => {
          const error = new NebulyError(`The recorder could not load its background stages; nothing will be sent: ${messageOf(cause)}`, { cause });
          this.#init.report(error);
          void this.#settle(undefined, error);
        },
      );
  }

  /**
   * Runs what waited, in order (what is asked meanwhile joins the end), then lets later
   * uses run at once. Paced like the rest of the background work (`Stages.pace`): 10,000
   * turns ended before the stages loaded are handed over in slices, not in one go.
   */
  async #settle(stages: Stages | undefined, failure: NebulyError | undefined): Promise<void> {
    const waiting = this.#waiting as Waiter[];
    const error = failure as NebulyError;
    this.#loaded = stages;
    // By index: what is asked while this waits for a slice is pushed onto the same list.
    for (let index = 0; index < waiting.length; index += 1) {
      try {
        (waiting[index] as Waiter)(stages, error);
      } catch (cause) {
        // A bug: reported, and what waits after it still runs.
        this.#init.report(new NebulyError(`The recorder's background work failed: ${messageOf(cause)}`, { cause }));
      }
      this.#handedOver = index + 1;
      const wait = stages?.pace();
      if (wait !== undefined) await wait;
    }
    this.#waiting = undefined;
    this.#lastOf.clear();
    this.#ready = stages;
    this.#failure = failure;
    this.#init.changed();
  }
}
