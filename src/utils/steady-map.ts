/** The entry that keeps a {@link SteadyMap} from emptying: no caller can name its key. */
const HOLD: unique symbol = Symbol('hold');

/**
 * A `Map` that never empties, for one that entries go through one or a few at a time
 * (a conversation claimed, then completed). V8 gives a map a new hash table each time its
 * last entry is deleted (it shrinks at a quarter full), and a map that has lived a while
 * gets it in the old generation, which only a full collection frees: ~170 bytes there
 * for each entry that passed through. One entry of its own, never deleted, keeps the table.
 *
 * @example
 * ```ts
 * const claimed = new SteadyMap<string, Claim>();
 * claimed.set(generation, claim);
 * claimed.delete(generation); // the table stays
 * ```
 */
export class SteadyMap<K, V> {
  readonly #map = new Map<K | typeof HOLD, V | undefined>([[HOLD, undefined]]);

  /** How many entries it holds. */
  get size(): number {
    return this.#map.size - 1;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  set(key: K, value: V): void {
    this.#map.set(key, value);
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  /** The values, in the order their keys were set. */
  *values(): IterableIterator<V> {
    for (const [key, value] of this.#map) if (key !== HOLD) yield value as V;
  }
}
