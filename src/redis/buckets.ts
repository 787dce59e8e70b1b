/**
 * Where a conversation's keys live: the bucket its id hashes to, among `shards`. Each
 * bucket's keys start with its own hash tag, so that Redis Cluster puts each bucket in
 * one slot (a script's keys always share it) and spreads the buckets over its masters.
 */

/**
 * How many buckets a store has unless told otherwise: enough that a 3-master cluster holds
 * about as many keys on each master (test/store/redis-cluster.test.ts measures it), few
 * enough that a sweep, which reads every bucket, stays cheap.
 *
 * @example
 * ```ts
 * new Buckets('nebuly:', DEFAULT_SHARDS);
 * ```
 */
export const DEFAULT_SHARDS = 64;

/** FNV-1a (32 bits) over the UTF-16 code units of `text`: cheap, and spreads ids well. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The keys of one bucket, by what they hold (scripts.ts describes each).
 *
 * @example
 * ```ts
 * const bucket = new Bucket('nebuly:', 7);
 * bucket.open('chat-42'); // '{nebuly:7}o:chat-42'
 * ```
 */
export class Bucket {
  /** Its hash tag, `{prefix<n>}`: what a loss report names. */
  readonly tag: string;
  /** The index: open conversations by last activity, claims by lease end, and the bucket's epoch. */
  readonly idle: string;

  constructor(prefix: string, index: number) {
    this.tag = `{${prefix}${index}}`;
    this.idle = `${this.tag}idle`;
  }

  /** The open conversation `conversationId`. */
  open(conversationId: string): string {
    return `${this.tag}o:${conversationId}`;
  }

  /** A claimed conversation, by its claim id. */
  claim(claimId: string): string {
    return `${this.tag}l:${claimId}`;
  }

  /** What is kept of `conversationId`'s interactions: appended ids, and sent ones for late feedback. */
  kept(conversationId: string): string {
    return `${this.tag}k:${conversationId}`;
  }
}

/**
 * The `shards` buckets of a store, and which one holds a conversation.
 *
 * @example
 * ```ts
 * const buckets = new Buckets('nebuly:', 64);
 * const bucket = buckets.of('chat-42');
 * ```
 */
export class Buckets {
  readonly all: readonly Bucket[];

  constructor(prefix: string, shards: number) {
    this.all = Array.from({ length: shards }, (_, index) => new Bucket(prefix, index));
  }

  /** The bucket of `conversationId`. */
  of(conversationId: string): Bucket {
    return this.all[fnv1a(conversationId) % this.all.length]!;
  }
}
