import type { Bucket } from './buckets.js';

/**
 * A call of this store that may have told a conversation lost (a script that meets an
 * evicted conversation removes its entry and mark, so that its caller alone tells it), but
 * whose reply never came: it timed out, or the connection dropped after Redis ran it.
 * The script noted its `teller` in the conversation's kept hash; the TOLD script asks.
 */
export interface Doubt {
  readonly bucket: Bucket;
  readonly conversationId: string;
  readonly teller: string;
  /** When the reply did not come (`Date.now()`: a client's queue runs on the wall clock, not the recorder's). */
  readonly since: number;
  /** When to ask next: each answer that it told nothing yet doubles the wait; never (`Infinity`) once it told. */
  next: number;
}

/** How many calls are kept in doubt at most, the oldest forgotten first: an outage makes every call one. */
const MAX_DOUBTS = 10_000;

/**
 * The calls of one store whose reply never came, until a sweep asks Redis whether each
 * told a loss (see {@link Doubt}), for `ms` at most: a client sends a command it queued
 * while disconnected once it reconnects, so that a call that told nothing when first
 * asked may yet run. Asked again later each time, at twice the age of the doubt.
 *
 * @example
 * ```ts
 * doubts.add(bucket, 'chat-42', teller);
 * for (const [bucket, due] of doubts.due()) for (const doubt of due) doubts.answered(doubt, await told(bucket, doubt));
 * ```
 */
export class Doubts {
  #list: Doubt[] = [];
  readonly #ms: number;

  constructor(ms: number) {
    this.#ms = ms;
  }

  /** The call `teller` on `conversationId` got no reply. */
  add(bucket: Bucket, conversationId: string, teller: string): void {
    const now = Date.now();
    if (this.#list.length >= MAX_DOUBTS) this.#list.shift();
    this.#list.push({ bucket, conversationId, teller, since: now, next: now });
  }

  /** The calls to ask about now, by bucket; those in doubt longer than `ms` are forgotten. */
  due(): Map<Bucket, Doubt[]> {
    const byBucket = new Map<Bucket, Doubt[]>();
    if (this.#list.length === 0) return byBucket;
    const now = Date.now();
    this.#list = this.#list.filter((doubt) => now - doubt.since <= this.#ms && doubt.next !== Number.POSITIVE_INFINITY);
    for (const doubt of this.#list) {
      if (doubt.next > now) continue;
      const due = byBucket.get(doubt.bucket);
      if (due === undefined) byBucket.set(doubt.bucket, [doubt]);
      else due.push(doubt);
    }
    return byBucket;
  }

  /** Redis answered for `doubt`: forgotten when it `told` a loss (now told by the asker), else asked again later. */
  answered(doubt: Doubt, told: boolean): void {
    const now = Date.now();
    // Told: never asked again, and dropped at the next `due` (one pass for all those told).
    doubt.next = told ? Number.POSITIVE_INFINITY : now + Math.max(1_000, now - doubt.since);
  }
}
