/**
 * A first-in, first-out queue that takes from its front in O(1): an array and the index
 * of its head (`Array#shift` copies the whole array, O(n) with thousands waiting). The
 * taken front is dropped once it is half the array, or at once when all is taken.
 *
 * @example
 * ```ts
 * const waiting = new Fifo<() => void>();
 * waiting.push(resume);
 * waiting.shift()?.();
 * ```
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  /** How many items are queued. */
  get length(): number {
    return this.#items.length - this.#head;
  }

  /** The oldest item, left in place; `undefined` when empty. */
  get first(): T | undefined {
    return this.#head < this.#items.length ? this.#items[this.#head] : undefined;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** Removes and returns the oldest item, or `undefined` when empty. */
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    // Not kept by the queue once taken: it may hold much (a job, its conversation).
    this.#items[this.#head] = undefined as T;
    this.#head += 1;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Removes and returns every item, oldest first. */
  shiftAll(): T[] {
    const items = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    return items;
  }

  /** Keeps only the items `keep` accepts, in order: O(n), for a rare clean-up. */
  retain(keep: (item: T) => boolean): void {
    this.#items = this.#items.slice(this.#head).filter(keep);
    this.#head = 0;
  }
}
