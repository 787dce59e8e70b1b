import type { ConversationFeedbackAction } from '../../schemas/index.js';
import { newId } from '../ids.js';
import { Fifo } from '../../utils/fifo.js';
import { LinkedList } from '../linked-list.js';
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
 * A sent interaction kept for late feedback and tags: what `sent()` answers, and its bookkeeping,
 * in one object, which is also its place in the order kept (see `#sentOrder`): three
 * objects an interaction were a twentieth of a delivery's CPU, churned at the bound.
 */
interface Kept extends SentInteraction {
  readonly id: string;
  readonly conversationId: string;
  readonly until: number;
  /** What it counts against `maxSentBytes`. */
  readonly bytes: number;
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
  readonly #open = new Map<string, Open>();
  /** Least recently active first. */
  readonly #order = new LinkedList<Open>();
  /** By generation, in order of claim. */
  readonly #claimed = new Map<string, Claimed>();
  /**
   * By interaction id alone, its conversation checked at lookup: ids are random UUIDs,
   * and a key joined from both ids cost a string built, flattened and hashed twice an
   * interaction. An id sent again in another conversation replaces the entry.
   */
  readonly #sent = new Map<string, Kept>();
  /**
   * The sent interactions in the order they were kept, oldest first, to
   * forget the oldest past `maxSent` without iterating the map (whose deleted entries an
   * iteration skips one by one: thousands, once it is full). An id kept again is queued
   * again; its older place, no longer the map's entry, is skipped.
   */
  readonly #sentOrder = new Fifo<Kept>();

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
    for (const { id, interaction } of interactions) {
      const { input, output, time_start: timeStart, time_end: timeEnd } = interaction;
      const bytes = 2 * (input.length + output.length + endUser.length) + SENT_ENTRY_OVERHEAD_BYTES;
      const kept: Kept = { id, conversationId, endUser, input, output, timeStart, timeEnd, until: retainUntil, bytes };
      this.#forget(id);
      this.#sent.set(id, kept);
      this.#sentBytes += bytes;
      this.#sentOrder.push(kept);
    }
    while ((this.#sent.size > this.#maxSent || this.#sentBytes > this.#maxSentBytes) && this.#sentOrder.length > 0) {
      const oldest = this.#sentOrder.shift() as Kept;
      if (this.#sent.get(oldest.id) === oldest) this.#forget(oldest.id);
    }
    // Places of ids forgotten or kept again go once they are half the queue (lookups
    // forget expired ones too): O(1) an id, amortized, and the queue stays within twice
    // what the map holds.
    const queued = this.#sentOrder.length;
    if (queued > 1_024 && queued > 2 * this.#sent.size) this.#sentOrder.retain((kept) => this.#sent.get(kept.id) === kept);
  }

  release(claim: ConversationClaim): void {
    const claimed = this.#claimed.get(claim.generation);
    if (claimed?.token === claim.token) claimed.leaseUntil = Number.NEGATIVE_INFINITY;
  }

  sent(conversationId: string, interactionId: string, now: number): SentInteraction | undefined {
    const kept = this.#sent.get(interactionId);
    if (kept === undefined || kept.conversationId !== conversationId) return undefined;
    if (kept.until > now) return { endUser: kept.endUser, input: kept.input, output: kept.output, timeStart: kept.timeStart, timeEnd: kept.timeEnd };
    this.#forget(interactionId);
    return undefined;
  }

  /** Forgets the sent interaction `key`, if kept. */
  #forget(key: string): void {
    const kept = this.#sent.get(key);
    if (kept === undefined) return;
    this.#sent.delete(key);
    this.#sentBytes -= kept.bytes;
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
