import { Fifo } from './fifo.js';

/** The bounds of a {@link BoundedQueue}. */
export interface QueueLimits {
  /** The most items held at once. */
  maxItems: number;
  /** The most bytes held at once, summed over the `bytes` of the items queued and those taken but not released. */
  maxBytes: number;
}

/** The answer of {@link BoundedQueue.tryAdd}: added, or refused by the named bound. */
export type AddResult = { added: true } | { added: false; limit: keyof QueueLimits };

const ADDED: AddResult = Object.freeze({ added: true });

/**
 * A first-in, first-out queue bounded by item count and by bytes. Pure: no timers, no
 * I/O, no errors thrown; {@link BoundedQueue.tryAdd} answers whether the item fits, and
 * the caller decides what to do with one that does not. An item taken still counts its
 * bytes until {@link BoundedQueue.release}: what is being sent takes memory as much as
 * what waits.
 *
 * @example
 * ```ts
 * const queue = new BoundedQueue<{ bytes: number }>({ maxItems: Infinity, maxBytes: 1024 });
 * queue.tryAdd({ bytes: 600 }); // { added: true }
 * const item = queue.take()!;
 * queue.tryAdd({ bytes: 600 }); // { added: false, limit: 'maxBytes' }: the first is still held
 * queue.release(item);
 * ```
 */
export class BoundedQueue<T extends { readonly bytes: number }> {
  readonly #limits: QueueLimits;
  readonly #items = new Fifo<T>();
  #bytes = 0;

  constructor(limits: QueueLimits) {
    this.#limits = limits;
  }

  /** How many items are queued (taken ones not counted). */
  get size(): number {
    return this.#items.length;
  }

  /** How many bytes are held: queued, or taken and not released. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Adds `item` at the back if both bounds allow; says which bound refused it otherwise. */
  tryAdd(item: T): AddResult {
    if (this.size >= this.#limits.maxItems) return { added: false, limit: 'maxItems' };
    if (this.#bytes + item.bytes > this.#limits.maxBytes) return { added: false, limit: 'maxBytes' };
    this.#items.push(item);
    this.#bytes += item.bytes;
    return ADDED;
  }

  /** Removes and returns the oldest item, or `undefined` when empty; its bytes stay counted until released. */
  take(): T | undefined {
    return this.#items.shift();
  }

  /** Removes and returns every queued item, oldest first; their bytes stay counted until released. */
  takeAll(): T[] {
    return this.#items.shiftAll();
  }

  /** A taken item is gone (sent, or given up): its bytes no longer count. Once per taken item. */
  release(item: T): void {
    this.#bytes -= item.bytes;
  }
}
