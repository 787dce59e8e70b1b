import { RedisStoreError } from './commands.js';
import type { Bucket } from './buckets.js';

/** What one instance stored in a bucket since it last saw the bucket's epoch change. */
interface Stored {
  interactions: number;
  conversations: Set<string>;
  since: number | undefined;
}

/**
 * What {@link Epochs.settle} answers for a loss already reported: the call is to run again.
 *
 * @example
 * ```ts
 * if (epochs.settle('append', bucket, reply) === AGAIN) await runAgain();
 * ```
 */
export const AGAIN: unique symbol = Symbol('again');

const CHANGED = 'its epoch changed: Redis restarted without persistence, was flushed, or evicted it';

/** The conversation ids a loss report names, at most: the count says how many more. */
const NAMED = 10;

/** The conversation ids remembered per bucket for a loss report: bounded memory. */
const REMEMBERED = 100;

/**
 * What this store instance knows of each bucket's epoch (scripts.ts: a random id the
 * bucket gets when first used, gone when Redis loses the bucket's data), and what it
 * stored there since: what a loss report can name.
 *
 * @example
 * ```ts
 * const reply = await commands.run('append', 'append', keys, [epochs.seen(bucket), epochs.fresh(), ...args]);
 * const result = epochs.settle('append', bucket, reply, now);
 * ```
 */
export class Epochs {
  readonly #seen = new Map<string, string>();
  readonly #stored = new Map<string, Stored>();

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

  /** Notes that this instance stored `count` interactions of `conversationId` in `bucket` at `now`. */
  stored(bucket: Bucket, conversationId: string, count: number, now: number): void {
    if (count <= 0) return;
    let stored = this.#stored.get(bucket.tag);
    if (stored === undefined) {
      stored = { interactions: 0, conversations: new Set(), since: undefined };
      this.#stored.set(bucket.tag, stored);
    }
    stored.interactions += count;
    stored.since ??= now;
    if (stored.conversations.size < REMEMBERED) stored.conversations.add(conversationId);
  }

  /**
   * The result of a script's `{'ok', epoch, result}` reply, learning the epoch; for a
   * `{'lost', epoch}` reply, a `store_lost` {@link RedisStoreError} saying what this
   * instance stored there since, after which the bucket's new epoch is the one seen; or
   * {@link AGAIN} when another call of this instance met the same loss first (calls in
   * flight together): one report per loss.
   */
  settle(operation: string, bucket: Bucket, reply: unknown): unknown {
    const [status, raw, result] = Array.isArray(reply) ? (reply as unknown[]) : [];
    // A client that parses replies may give the score as a number.
    const epoch = typeof raw === 'number' ? String(raw) : raw;
    if (typeof epoch !== 'string' || (status !== 'ok' && status !== 'lost')) {
      throw new RedisStoreError(operation, 'failed', 'the server answered in an unexpected shape (was the store written by another version?)');
    }
    const known = this.#seen.get(bucket.tag);
    this.#seen.set(bucket.tag, epoch);
    if (status === 'ok') return result;
    if (known === epoch) return AGAIN;
    throw this.lost(operation, bucket, CHANGED);
  }

  /**
   * A `store_lost` error when `current`, the epoch a sweep read of `bucket` (`''`: none),
   * is not the one this instance saw; it is the one seen from now on (none: the next
   * write makes a new one, which this instance then takes without a report). A sweep
   * that read a bucket's epoch knows it, so that it reports a loss there even when
   * nothing is written there again.
   */
  check(operation: string, bucket: Bucket, current: string): RedisStoreError | undefined {
    const seen = this.seen(bucket);
    if (seen === current) return undefined;
    if (seen === '') {
      this.#seen.set(bucket.tag, current);
      return undefined;
    }
    if (current === '') this.#seen.delete(bucket.tag);
    else this.#seen.set(bucket.tag, current);
    return this.lost(operation, bucket, CHANGED);
  }

  /** A `store_lost` error for data of `bucket` that Redis no longer has, for `why`, naming what this instance stored there. */
  lost(operation: string, bucket: Bucket, why: string): RedisStoreError {
    const stored = this.#stored.get(bucket.tag);
    this.#stored.delete(bucket.tag);
    let known = 'this instance had stored nothing there';
    if (stored !== undefined) {
      const ids = [...stored.conversations];
      const named = ids.slice(0, NAMED).join(', ') + (ids.length > NAMED ? ` and ${ids.length - NAMED}${ids.length >= REMEMBERED ? '+' : ''} more` : '');
      known =
        `this instance had stored ${stored.interactions} interaction(s) there since ${new Date(stored.since!).toISOString()}, ` +
        `of conversation(s) ${named}; those not yet sent are lost`;
    }
    return new RedisStoreError(operation, 'store_lost', `Redis lost the store's data in bucket ${bucket.tag} (${why}): ${known}`);
  }
}
