import type { ConversationFeedbackAction } from '../../schemas/index.js';
import { newId } from '../ids.js';
import { Fifo } from '../../utils/fifo.js';
import { SteadyMap } from '../../utils/steady-map.js';
import { LinkedList } from '../linked-list.js';
import { utf8ByteLength } from '../utf8.js';
import type { Attachment, ConversationClaim, ConversationStore, SentInteraction, StoredInteraction } from '../../types/store.js';

/** What a kept sent interaction costs besides its strings: the entry, its key, its place in the order. */
const SENT_ENTRY_OVERHEAD_BYTES = 256;

/** An open conversation: a node of the list that keeps them in order of last activity. */
interface Open {
  readonly conversationId: string;
  readonly generation: string;
  readonly endUser: string;
  readonly interactions: StoredInteraction[];
  lastActivityAt: number;
  previous: Open | undefined;
  next: Open | undefined;
}

interface Claimed extends ConversationClaim {
  leaseUntil: number;
}

/**
 * The slots an interaction takes in a {@link Kept} batch's `items`: its id, input, output,
 * time start, time end, and bytes. Its input and output are each where it ends in the
 * batch's `text` (a number), or, in a batch without one, the string itself.
 */
const SLOTS = 6;

/** The most characters of inputs and outputs a batch packs into its `text` (see {@link Kept}). */
const MAX_PACKED_CHARS = 64 * 1024;

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();

/** A UTF-16 code unit of a surrogate pair that is not part of one: UTF-8 cannot hold it as it is. No lookbehind: older engines reject it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The interactions one `keep` (or `complete`) kept for late feedback and tags, in one
 * object and one array: a sent conversation's interactions share their conversation, end
 * user and time, and are forgotten oldest first. One entry a batch in the store's map and
 * order, not one an interaction: keeping an interaction was two objects and four lookups
 * of a map of 10,000 ids (a twentieth of a delivery's CPU), and ~70 heap bytes more.
 */
interface Kept {
  readonly conversationId: string;
  readonly endUser: string;
  readonly until: number;
  /**
   * {@link SLOTS} an interaction, in the order kept; those of an interaction forgotten
   * (kept again since, or past the bounds) are `undefined`, its strings let go.
   */
  readonly items: (string | number | undefined)[];
  /**
   * The inputs and outputs of its interactions, one after the other, in UTF-8: one
   * buffer outside the heap, not ten strings in it. Kept for thousands of conversations,
   * those strings were most of what the heap's old generation took in a conversation,
   * and were copied there first. `undefined` for a batch whose text UTF-8 cannot hold
   * as it is (a lone surrogate), or longer than {@link MAX_PACKED_CHARS}: its strings are kept.
   */
  text: Uint8Array | undefined;
  /** Where the interactions not yet forgotten oldest first begin. */
  first: number;
  /** The same conversation's batches kept before and after this one: `sent()` looks from the newest. */
  older: Kept | undefined;
  newer: Kept | undefined;
  /** Forgotten whole (expired): its place in the order is skipped. */
  gone: boolean;
}

/**
 * The input (`slot` one past its id) or output (two past) of a kept interaction: its
 * string, or its bytes in the batch's text, from where the text before it ends (the
 * previous interaction's output, or the start) to where it ends.
 */
function textOf(batch: Kept, slot: number): string {
  const { items, text } = batch;
  const end = items[slot];
  if (typeof end === 'string' || text === undefined) return end as string;
  const before = slot % SLOTS === 1 ? slot - SLOTS + 1 : slot - 1;
  const start = before > 0 ? (items[before] as number) : 0;
  return decoder.decode(text.subarray(start, end as number));
}

/**
 * The store of one process (see `memoryStore`), made by the recorder when no `store` is
 * given; the limits are `MemoryStoreOptions`' and default the same.
 *
 * @example
 * ```ts
 * const store = new MemoryStore(1_000, 8 * 1024 * 1024);
 * ```
 */
export class MemoryStore implements ConversationStore {
  readonly shared = false;
  readonly #maxSent: number;
  readonly #maxSentBytes: number;
  /** What the kept sent interactions take, as `maxSentBytes` counts it. */
  #sentBytes = 0;
  readonly #open = new SteadyMap<string, Open>();
  /** Least recently active first. */
  readonly #order = new LinkedList<Open>();
  /** By generation, in order of claim. */
  readonly #claimed = new SteadyMap<string, Claimed>();
  /** How many sent interactions are kept, as `maxSent` counts them. */
  #sentCount = 0;
  /** By conversation, its newest batch of sent interactions (the older ones linked from it). */
  readonly #sent = new SteadyMap<string, Kept>();
  /**
   * The batches in the order they were kept, oldest first, to forget the oldest
   * interactions past the bounds without iterating the map (whose deleted entries an
   * iteration skips one by one: thousands, once it is full). A batch forgotten whole is
   * skipped when it comes first.
   */
  readonly #sentOrder = new Fifo<Kept>();
  /** How many batches are kept and not forgotten whole: the order is compacted when it holds twice as many. */
  #batches = 0;

  constructor(maxSent = 10_000, maxSentBytes = 32 * 1024 * 1024) {
    this.#maxSent = maxSent;
    this.#maxSentBytes = maxSentBytes;
  }

  openCount(): number {
    return this.#open.size;
  }

  earliestActivity(): number | undefined {
    return this.#order.head?.lastActivityAt;
  }

  append(conversationId: string, endUser: string, interactions: readonly StoredInteraction[], now: number): void {
    let open = this.#open.get(conversationId);
    if (open === undefined) {
      if (interactions.length === 0) return;
      open = {
        conversationId,
        generation: newId(),
        endUser,
        interactions: [],
        lastActivityAt: now,
        previous: undefined,
        next: undefined,
      };
      this.#open.set(conversationId, open);
    } else {
      this.#order.unlink(open);
    }
    for (const interaction of interactions) open.interactions.push(interaction);
    this.#touch(open, now);
  }

  attach(conversationId: string, interactionId: string, attachment: Attachment, now: number): boolean {
    const open = this.#open.get(conversationId);
    const stored = open?.interactions.find((candidate) => candidate.id === interactionId);
    if (open === undefined || stored === undefined) return false;
    const interaction = stored.interaction as { feedback_actions?: ConversationFeedbackAction[]; tags?: Record<string, string> };
    if (attachment.kind === 'feedback') (interaction.feedback_actions ??= []).push(attachment.action);
    else interaction.tags = { ...interaction.tags, ...attachment.tags };
    this.#order.unlink(open);
    this.#touch(open, now);
    return true;
  }

  claim(conversationId: string, now: number, leaseMs: number): ConversationClaim | undefined {
    const open = this.#open.get(conversationId);
    return open === undefined ? undefined : this.#claimOpen(open, now, leaseMs);
  }

  claimIdle(idleBefore: number, now: number, leaseMs: number, limit: number): ConversationClaim[] {
    const claims: ConversationClaim[] = [];
    for (const claimed of this.#claimed.values()) {
      if (claims.length >= limit) return claims;
      if (claimed.leaseUntil <= now) claims.push(this.#renew(claimed, now, leaseMs));
    }
    while (claims.length < limit && this.#order.head !== undefined && this.#order.head.lastActivityAt <= idleBefore) {
      claims.push(this.#claimOpen(this.#order.head, now, leaseMs));
    }
    return claims;
  }

  complete(claim: ConversationClaim, retainUntil: number): void {
    const claimed = this.#claimed.get(claim.generation);
    if (claimed === undefined || claimed.token !== claim.token) return;
    this.#claimed.delete(claim.generation);
    this.keep(claimed.conversationId, claimed.endUser, claimed.interactions, Number.NEGATIVE_INFINITY, retainUntil);
  }

  keep(conversationId: string, endUser: string, interactions: readonly StoredInteraction[], _now: number, retainUntil: number): void {
    if (interactions.length === 0) return;
    const newest = this.#sent.get(conversationId);
    const items = new Array<string | number | undefined>(interactions.length * SLOTS);
    // One string of every input and output, encoded once (a rope: V8 joins it as it encodes).
    let chars = 0;
    for (const { interaction } of interactions) chars += interaction.input.length + interaction.output.length;
    let joined = '';
    // A large one keeps its strings: scanning and encoding megabytes here, in one go, held
    // the host's loop for tens of ms (340 ms for a 50 MiB input); its strings are few.
    if (chars <= MAX_PACKED_CHARS) for (const { interaction } of interactions) joined = joined + interaction.input + interaction.output;
    const packed = chars <= MAX_PACKED_CHARS && !LONE_SURROGATE.test(joined);
    let at = 0;
    let end = 0;
    for (const { id, interaction } of interactions) {
      // An interaction kept again is the newest: its older place is forgotten.
      if (newest !== undefined) this.#forgetId(newest, id);
      const { input, output, time_start: timeStart, time_end: timeEnd } = interaction;
      const bytes = 2 * (input.length + output.length + endUser.length) + SENT_ENTRY_OVERHEAD_BYTES;
      items[at] = id;
      if (packed) {
        end += utf8ByteLength(input);
        items[at + 1] = end;
        end += utf8ByteLength(output);
        items[at + 2] = end;
      } else {
        items[at + 1] = input;
        items[at + 2] = output;
      }
      items[at + 3] = timeStart;
      items[at + 4] = timeEnd;
      items[at + 5] = bytes;
      at += SLOTS;
      this.#sentBytes += bytes;
    }
    this.#sentCount += interactions.length;
    const text = packed ? encoder.encode(joined) : undefined;
    const batch: Kept = { conversationId, endUser, until: retainUntil, items, text, first: 0, older: newest, newer: undefined, gone: false };
    if (newest !== undefined) newest.newer = batch;
    this.#sent.set(conversationId, batch);
    this.#sentOrder.push(batch);
    this.#batches += 1;
    while ((this.#sentCount > this.#maxSent || this.#sentBytes > this.#maxSentBytes) && this.#sentOrder.length > 0) {
      const oldest = this.#sentOrder.first as Kept;
      if (!oldest.gone && oldest.first < oldest.items.length) {
        this.#forgetAt(oldest, oldest.first);
        oldest.first += SLOTS;
      }
      if (oldest.gone || oldest.first >= oldest.items.length) {
        this.#sentOrder.shift();
        if (!oldest.gone) this.#drop(oldest);
      }
    }
    // Places of batches forgotten whole go once they are half the queue (lookups forget
    // expired ones): O(1) a batch, amortized, and the queue stays within twice what is kept.
    const queued = this.#sentOrder.length;
    if (queued > 1_024 && queued > 2 * this.#batches) this.#sentOrder.retain((kept) => !kept.gone);
  }

  release(claim: ConversationClaim): void {
    const claimed = this.#claimed.get(claim.generation);
    if (claimed?.token === claim.token) claimed.leaseUntil = Number.NEGATIVE_INFINITY;
  }

  sent(conversationId: string, interactionId: string, now: number): SentInteraction | undefined {
    for (let batch = this.#sent.get(conversationId); batch !== undefined; batch = batch.older) {
      const { items } = batch;
      for (let at = batch.first; at < items.length; at += SLOTS) {
        if (items[at] !== interactionId) continue;
        if (batch.until > now) {
          const time = (offset: number) => items[at + offset] as string;
          return { endUser: batch.endUser, input: textOf(batch, at + 1), output: textOf(batch, at + 2), timeStart: time(3), timeEnd: time(4) };
        }
        // Its batch's interactions were all kept until the same time: all are forgotten.
        this.#drop(batch);
        return undefined;
      }
    }
    return undefined;
  }

  /** Forgets the interaction `id` in `newest` or an older batch of its conversation, if kept. */
  #forgetId(newest: Kept, id: string): void {
    for (let batch: Kept | undefined = newest; batch !== undefined; batch = batch.older) {
      const { items } = batch;
      for (let at = batch.first; at < items.length; at += SLOTS) {
        if (items[at] === id) {
          this.#forgetAt(batch, at);
          return;
        }
      }
    }
  }

  /** Forgets the interaction at `at` in `batch`, if not forgotten yet: its count and bytes, and its strings. */
  #forgetAt(batch: Kept, at: number): void {
    const { items } = batch;
    if (items[at] === undefined) return;
    this.#sentCount -= 1;
    this.#sentBytes -= items[at + 5] as number;
    // Where its input and output end in the batch's text stay: the next one's start.
    if (batch.text === undefined) items.fill(undefined, at, at + SLOTS);
    else {
      items[at] = undefined;
      items.fill(undefined, at + 3, at + SLOTS);
    }
  }

  /** Forgets `batch` whole: what it still holds, and its place in its conversation's batches and in the map. */
  #drop(batch: Kept): void {
    if (batch.gone) return;
    for (let at = batch.first; at < batch.items.length; at += SLOTS) this.#forgetAt(batch, at);
    batch.gone = true;
    batch.text = undefined;
    this.#batches -= 1;
    const { older, newer } = batch;
    if (older !== undefined) older.newer = newer;
    if (newer !== undefined) newer.older = older;
    else if (older !== undefined) this.#sent.set(batch.conversationId, older);
    else this.#sent.delete(batch.conversationId);
    batch.older = undefined;
    batch.newer = undefined;
  }

  #claimOpen(open: Open, now: number, leaseMs: number): ConversationClaim {
    this.#open.delete(open.conversationId);
    this.#order.unlink(open);
    const claimed: Claimed = {
      conversationId: open.conversationId,
      generation: open.generation,
      token: newId(),
      endUser: open.endUser,
      interactions: open.interactions,
      lastActivityAt: open.lastActivityAt,
      leaseUntil: now + leaseMs,
    };
    this.#claimed.set(claimed.generation, claimed);
    return { ...claimed };
  }

  #renew(claimed: Claimed, now: number, leaseMs: number): ConversationClaim {
    // Re-inserted, so that the map stays in order of claim.
    this.#claimed.delete(claimed.generation);
    const renewed: Claimed = { ...claimed, token: newId(), leaseUntil: now + leaseMs };
    this.#claimed.set(claimed.generation, renewed);
    return { ...renewed };
  }

  /** Puts `open`, unlinked, at the end of the list as active at `now`. */
  #touch(open: Open, now: number): void {
    // A clock that goes back must not break the order the list relies on.
    open.lastActivityAt = this.#order.tail === undefined ? now : Math.max(now, this.#order.tail.lastActivityAt);
    this.#order.append(open);
  }
}
