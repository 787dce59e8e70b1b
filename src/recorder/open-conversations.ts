/** What the recorder keeps about an open conversation. */
export interface OpenHandle {
  /** When it last saw an interaction, step or feedback, by the recorder's clock. */
  lastActivityAt(): number;
}

interface Entry<K, H extends OpenHandle> {
  readonly key: K;
  readonly handle: H;
  /** A lower bound of `handle.lastActivityAt()`: what the heap is ordered by. */
  since: number;
  /** Its place in the heap. */
  index: number;
}

/**
 * The open conversations, able to say which has been idle longest without a scan.
 *
 * A min-heap ordered by each conversation's last activity as last read. Recording does
 * not tell the heap about activity (that would put a heap update on every step, the
 * hottest path there is); a conversation's read value only ever lags behind, so it is a
 * lower bound. {@link OpenConversations.idlest} refreshes the top until the top's value
 * is current: then no other conversation can have been idle longer. Each refresh is paid
 * for by activity since the last one, so finding the idlest costs O(log n) amortized;
 * adding and removing cost O(log n).
 *
 * @example
 * ```ts
 * const open = new OpenConversations<string, { name: string; lastActivityAt: () => number }>();
 * open.add('a', { name: 'a', lastActivityAt: () => 10 });
 * open.add('b', { name: 'b', lastActivityAt: () => 5 });
 * open.idlest()?.name; // 'b'
 * ```
 */
export class OpenConversations<K, H extends OpenHandle> {
  readonly #entries = new Map<K, Entry<K, H>>();
  readonly #heap: Entry<K, H>[] = [];

  /** How many are open. */
  get size(): number {
    return this.#heap.length;
  }

  /** Every open conversation's handle, in no particular order. */
  handles(): H[] {
    return this.#heap.map((entry) => entry.handle);
  }

  add(key: K, handle: H): void {
    if (this.#entries.has(key)) return;
    const entry: Entry<K, H> = { key, handle, since: handle.lastActivityAt(), index: this.#heap.length };
    this.#entries.set(key, entry);
    this.#heap.push(entry);
    this.#siftUp(entry.index);
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    const last = this.#heap.pop() as Entry<K, H>;
    if (last === entry) return;
    this.#heap[entry.index] = last;
    last.index = entry.index;
    this.#siftDown(last.index);
    this.#siftUp(last.index);
  }

  /** The handle of the conversation idle for longest (least recent activity), or `undefined` when none is open. */
  idlest(): H | undefined {
    for (;;) {
      const top = this.#heap[0];
      if (top === undefined) return undefined;
      const current = top.handle.lastActivityAt();
      // Not `current !== since`: a clock that returns NaN must not loop for ever.
      if (!(current > top.since)) return top.handle;
      top.since = current;
      this.#siftDown(0);
    }
  }

  #siftUp(index: number): void {
    const heap = this.#heap;
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!((heap[child] as Entry<K, H>).since < (heap[parent] as Entry<K, H>).since)) return;
      this.#swap(child, parent);
      child = parent;
    }
  }

  #siftDown(index: number): void {
    const heap = this.#heap;
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < heap.length && (heap[left] as Entry<K, H>).since < (heap[smallest] as Entry<K, H>).since) smallest = left;
      if (right < heap.length && (heap[right] as Entry<K, H>).since < (heap[smallest] as Entry<K, H>).since) smallest = right;
      if (smallest === parent) return;
      this.#swap(parent, smallest);
      parent = smallest;
    }
  }

  #swap(a: number, b: number): void {
    const heap = this.#heap;
    const first = heap[a] as Entry<K, H>;
    const second = heap[b] as Entry<K, H>;
    heap[a] = second;
    heap[b] = first;
    second.index = a;
    first.index = b;
  }
}
