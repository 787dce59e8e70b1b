import { RedisStoreError } from './commands.js';
import type { Bucket } from './buckets.js';

/** What one instance stored of one conversation in a bucket since it last saw the bucket's epoch change. */
interface Stored {
  interactions: number;
  since: number;
  /**
   * The generations it stored into (scripts.ts), the last {@link GENERATIONS}: what the
   * `lost` script checks were sent, are claimed or still open.
   */
  generations: string[];
}

/**
 * What one instance stored in a bucket since it last saw the bucket's epoch change: by
 * conversation, the first {@link REMEMBERED} of them; the rest only counted.
 */
interface Ledger {
  readonly conversations: Map<string, Stored>;
  readonly more: { interactions: number; since: number | undefined };
}

/**
 * A loss of a bucket this instance met (its epoch changed), with what it had stored there:
 * to be checked against what Redis still has (the `lost` script) and told once.
 */
export class Loss {
  readonly bucket: Bucket;
  /** What this instance stored there since it last saw the epoch; only it tells of these. */
  readonly ledger: Ledger;
  readonly why: string;

  constructor(bucket: Bucket, ledger: Ledger, why: string) {
    this.bucket = bucket;
    this.ledger = ledger;
    this.why = why;
  }

  /** The conversations to ask Redis about. */
  get conversationIds(): string[] {
    return [...this.ledger.conversations.keys()];
  }
}

/**
 * What the `lost` script (scripts.ts) says of a conversation, a letter per generation this
 * instance stored into (and `l` after them for another generation lost): `w` whole, `l`
 * lost (and now told by this caller alone), `c` claimed and not sent yet (its lease put
 * back in the index), `s` sent or told already, `u` unknown (nothing of it left to tell,
 * or only another generation: sent or lost).
 */
export type Verdict = string;

/**
 * What {@link Epochs.settle} answers for a loss already reported: the call is to run again.
 *
 * @example
 * ```ts
 * if (epochs.settle('append', bucket, sent, reply) === AGAIN) await runAgain();
 * ```
 */
export const AGAIN: unique symbol = Symbol('again');

const CHANGED = 'its epoch changed: Redis restarted without persistence, was flushed, or evicted it';

/** The conversation ids a loss report names, at most: the count says how many more. */
const NAMED = 10;

/** The conversation ids remembered per bucket for a loss report: bounded memory. */
const REMEMBERED = 100;

/**
 * The generations remembered per conversation: a conversation sent goes on in another
 * generation, and one whose turns are replaced unseen (evicted) too.
 */
const GENERATIONS = 4;

/** The lost epochs remembered per bucket as told: more than calls in flight can still meet. */
const TOLD = 4;

/**
 * What this store instance knows of each bucket's epoch (scripts.ts: a random id the
 * bucket gets when first used, gone when Redis loses the bucket's data), and what it
 * stored there since: what a loss report can name, once the `lost` script said which of
 * those conversations Redis really lost.
 *
 * @example
 * ```ts
 * const sent = epochs.seen(bucket);
 * const reply = await commands.run('append', 'append', keys, [sent, epochs.fresh(), ...args]);
 * const result = epochs.settle('append', bucket, sent, reply);
 * if (result instanceof Loss) throw epochs.told('append', result, await askRedis(result));
 * ```
 */
export class Epochs {
  /** Per bucket tag, the epoch last seen. */
  readonly #seen = new Map<string, string>();
  /** Per bucket tag, the last epochs whose loss this instance told: each is told once. */
  readonly #told = new Map<string, string[]>();
  readonly #stored = new Map<string, Ledger>();

  /** The epoch last seen of `bucket`, `''` when none was: the script's ARGV[1]. */
  seen(bucket: Bucket): string {
    return this.#seen.get(bucket.tag) ?? '';
  }

  /**
   * A new epoch for the script's ARGV[2], written when the bucket has none: a random
   * negative whole number (a score, below every activity time), exact as a double.
   */
  fresh(): string {
    return String(-1 - Math.floor(Math.random() * 2 ** 52));
  }

  /** Notes that this instance stored `count` interactions of `conversationId` in `bucket` at `now`, into `generations`. */
  stored(bucket: Bucket, conversationId: string, count: number, now: number, ...generations: string[]): void {
    if (count <= 0) return;
    let ledger = this.#stored.get(bucket.tag);
    if (ledger === undefined) {
      ledger = { conversations: new Map(), more: { interactions: 0, since: undefined } };
      this.#stored.set(bucket.tag, ledger);
    }
    const stored = ledger.conversations.get(conversationId);
    if (stored !== undefined) {
      stored.interactions += count;
      stored.since = Math.min(stored.since, now);
      for (const generation of generations) {
        if (generation !== '' && !stored.generations.includes(generation)) stored.generations.push(generation);
      }
      stored.generations.splice(0, stored.generations.length - GENERATIONS);
    }
    else if (ledger.conversations.size < REMEMBERED) {
      ledger.conversations.set(conversationId, { interactions: count, since: now, generations: generations.filter((generation) => generation !== '').slice(-GENERATIONS) });
    }
    else {
      ledger.more.interactions += count;
      ledger.more.since ??= now;
    }
  }

  /**
   * Forgets what this instance stored of generation `generation` of `conversationId` (all
   * of it when the generation is `''`, unknown): it claimed it (what it stored is in the
   * claim), or was told it is lost. A later loss of the bucket does not name it again;
   * another generation it stored into (one claimed by a holder that may die) it still does.
   */
  forget(bucket: Bucket, conversationId: string, generation = ''): void {
    const conversations = this.#stored.get(bucket.tag)?.conversations;
    const stored = conversations?.get(conversationId);
    if (stored === undefined) return;
    stored.generations = stored.generations.filter((one) => one !== generation);
    if (generation === '' || stored.generations.length === 0) conversations!.delete(conversationId);
  }

  /** What this instance stored of `conversationId` in `bucket` (if it kept count), that generation forgotten: it was told lost. */
  take(bucket: Bucket, conversationId: string, generation: string): Readonly<Stored> | undefined {
    const stored = this.#stored.get(bucket.tag)?.conversations.get(conversationId);
    const copy = stored === undefined ? undefined : { ...stored };
    this.forget(bucket, conversationId, generation);
    return copy;
  }

  /**
   * The result of a script's `{'ok', epoch, result}` reply to a call sent with `sent`
   * (what {@link Epochs.seen} was then), learning the epoch; for a `{'lost', epoch}` reply,
   * the {@link Loss} of epoch `sent` to tell, after which the bucket's new epoch is the one
   * seen; or {@link AGAIN} when this instance told the loss of `sent` already (another call
   * in flight with it, a sweep): one report per loss, whichever reply arrives first.
   */
  settle(operation: string, bucket: Bucket, sent: string, reply: unknown): unknown {
    const [status, raw, result] = Array.isArray(reply) ? (reply as unknown[]) : [];
    // A client that parses replies may give the score as a number.
    const epoch = typeof raw === 'number' ? String(raw) : raw;
    if (typeof epoch !== 'string' || (status !== 'ok' && status !== 'lost')) {
      throw new RedisStoreError(operation, 'failed', 'the server answered in an unexpected shape (was the store written by another version?)');
    }
    if (status === 'ok') {
      this.#learn(bucket, sent, epoch);
      return result;
    }
    return this.#lost(bucket, sent, epoch) ?? AGAIN;
  }

  /**
   * The {@link Loss} to tell when `current`, the epoch a sweep read of `bucket` (`''`:
   * none), is not `sent`, the one this instance had seen when it sent the read: the loss
   * of `sent`, unless told already. A sweep that read a bucket's epoch knows it, so that
   * it tells of a loss there even when nothing is written there again.
   */
  check(bucket: Bucket, sent: string, current: string): Loss | undefined {
    if (sent === '' || current === sent) {
      this.#learn(bucket, sent, current);
      return undefined;
    }
    return this.#lost(bucket, sent, current);
  }

  /** Learns `epoch`, the one the `lost` script found or gave `bucket`, unless this instance saw one since. */
  learned(bucket: Bucket, epoch: string): void {
    this.#learn(bucket, '', epoch);
  }

  /**
   * Takes `epoch` as the one seen of `bucket` if nothing else was learned since the call
   * that read it was sent with `sent`: replies of calls in flight together may be handled
   * in another order than Redis ran them.
   */
  #learn(bucket: Bucket, sent: string, epoch: string): void {
    if (epoch !== '' && this.seen(bucket) === sent) this.#seen.set(bucket.tag, epoch);
  }

  /**
   * The {@link Loss} of epoch `lost` of `bucket` (a call sent with it found `current`
   * instead, `''`: none), taking what this instance stored there; `undefined` when this
   * instance told it already.
   */
  #lost(bucket: Bucket, lost: string, current: string): Loss | undefined {
    let told = this.#told.get(bucket.tag);
    if (told?.includes(lost) === true) {
      if (this.seen(bucket) === '') this.#learn(bucket, '', current);
      return undefined;
    }
    told = [...(told ?? []), lost].slice(-TOLD);
    this.#told.set(bucket.tag, told);
    if (this.seen(bucket) === lost) {
      if (current === '') this.#seen.delete(bucket.tag);
      else this.#seen.set(bucket.tag, current);
    }
    const ledger = this.#stored.get(bucket.tag) ?? { conversations: new Map(), more: { interactions: 0, since: undefined } };
    this.#stored.delete(bucket.tag);
    return new Loss(bucket, ledger, CHANGED);
  }

  /**
   * The `store_lost` error telling `loss`: the conversations Redis lost of those this
   * instance stored there (`verdicts`, by the `lost` script; all of them when it could
   * not be asked), and how many were still whole or sent already.
   */
  told(operation: string, loss: Loss, verdicts?: ReadonlyMap<string, Verdict>): RedisStoreError {
    const { conversations, more } = loss.ledger;
    const named: string[] = [];
    let interactions = more.interactions;
    let since = more.since ?? Number.POSITIVE_INFINITY;
    let whole = 0;
    let done = 0;
    const claimed: string[] = [];
    for (const [conversationId, stored] of conversations) {
      const verdict = verdicts?.get(conversationId) ?? 'u';
      // What is open or claimed is indexed again under the new epoch (or its lease): still
      // this instance's to tell should it be lost later.
      const kept = stored.generations.filter((_, index) => verdict[index] === 'w' || verdict[index] === 'c');
      if (kept.length > 0) this.stored(loss.bucket, conversationId, stored.interactions, stored.since, ...kept);
      const lost = /[lu]/.test(verdict) || verdict === '';
      if (!lost && verdict.includes('w')) whole += 1;
      else if (!lost && verdict.includes('c')) claimed.push(conversationId);
      else if (!lost) done += 1;
      else {
        named.push(conversationId);
        interactions += stored.interactions;
        since = Math.min(since, stored.since);
      }
    }
    let known = 'this instance lost nothing there';
    if (interactions > 0) {
      const others = more.interactions > 0 ? `${named.length > 0 ? ' and' : ''} others it did not keep count of` : '';
      const list = named.slice(0, NAMED).join(', ') + (named.length > NAMED ? ` and ${named.length - NAMED} more` : '') + others;
      known =
        `this instance had stored ${interactions} interaction(s) there since ${new Date(since).toISOString()}, ` +
        `of conversation(s) ${list}; those not yet sent are lost`;
    }
    const held =
      claimed.length > 0
        ? `${claimed.length} claimed and not sent yet (${claimed.slice(0, NAMED).join(', ')}${claimed.length > NAMED ? ' and more' : ''}: ` +
          'sent by its holder, or told lost by a sweep once its lease runs out)'
        : '';
    const kept = [whole > 0 ? `${whole} still whole (swept as usual)` : '', held, done > 0 ? `${done} claimed, sent or told already` : ''].filter(Boolean);
    if (kept.length > 0) known += ` (of the other conversation(s) it had stored there: ${kept.join(', ')})`;
    return new RedisStoreError(operation, 'store_lost', `Redis lost the store's data in bucket ${loss.bucket.tag} (${loss.why}): ${known}`);
  }
}
