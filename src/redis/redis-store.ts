import { ValidationError } from '../core/nebuly-error.js';
import type { Attachment, ConversationClaim, ConversationStore, SentInteraction, StoredInteraction } from '../types/store.js';
import { type Bucket, Buckets, DEFAULT_SHARDS } from './buckets.js';
import { decodeClaim } from './claims.js';
import { isRedisClient, type RedisClient, type RedisCommands, redisCommands, RedisStoreError } from './commands.js';
import { Doubts } from './doubts.js';
import { AGAIN, Epochs, Loss, type Verdict } from './epochs.js';

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /**
   * Starts every key of the store, inside its buckets' hash tags: `{nebuly:0}idle`, ….
   * Stores with different prefixes share a server without meeting. No `{` or `}`.
   * @default 'nebuly:'
   */
  prefix?: string | undefined;
  /**
   * How many buckets (hash tags) the store's keys spread over: on Redis Cluster, each is
   * one slot, so that the store spreads over the masters and moves with resharding.
   * Every instance of one store must use the same number. A sweep reads every bucket.
   * @default 64
   */
  shards?: number | undefined;
  /**
   * How long a store call may wait for the server before it rejects (and the recorder
   * reports it): a lost connection never leaves the recorder waiting.
   * @default 5_000
   */
  timeoutMs?: number | undefined;
}

/** What `sent()` keeps of an interaction, with the end of its retention on the recorder's clock. */
interface Kept extends SentInteraction {
  readonly until: number;
}

/**
 * How long, at least, the store remembers the ids of the interactions of a conversation
 * it completed: an append replayed (or landing late, after a time-out) within this adds
 * nothing twice. Longer when feedback retention is.
 */
const REPLAY_WINDOW_MS = 3_600_000;

/**
 * A random id for a generation, a claim or a lease token. Not the recorder's `newId`:
 * importing it here would split it into a chunk of its own, one more module for the main
 * entry to load (test/package/node-condition.test.ts); and every runtime this store runs
 * on has `crypto.randomUUID`.
 */
const newId = () => globalThis.crypto.randomUUID();

/** A score or bound for a sorted set: Redis spells the infinities `+inf` and `-inf`. */
const score = (value: number) => (value === Number.POSITIVE_INFINITY ? '+inf' : value === Number.NEGATIVE_INFINITY ? '-inf' : String(value));

/** A score as a sorted set answers it, as a number to compare. */
const scoreOf = (text: string) => (text === '-inf' ? Number.NEGATIVE_INFINITY : text === '+inf' || text === 'inf' ? Number.POSITIVE_INFINITY : Number(text));

/** An ioredis client made with `keyPrefix`. */
function hasKeyPrefix(client: object): boolean {
  const keyPrefix = (client as { options?: { keyPrefix?: unknown } }).options?.keyPrefix;
  return typeof keyPrefix === 'string' && keyPrefix !== '';
}

function checkOptions(client: unknown, options: RedisStoreOptions): { prefix: string; shards: number; timeoutMs: number } {
  const issues = [];
  const prefix = options.prefix ?? 'nebuly:';
  const shards = options.shards ?? DEFAULT_SHARDS;
  const timeoutMs = options.timeoutMs ?? 5_000;
  if (!isRedisClient(client)) {
    issues.push({ path: ['client'], code: 'custom', message: 'must be a connected node-redis (>= 4), ioredis (>= 5) or @upstash/redis client' });
  } else if (hasKeyPrefix(client)) {
    // ioredis would add keyPrefix before the hash tag: keys of one script in different slots.
    issues.push({ path: ['client', 'options', 'keyPrefix'], code: 'custom', message: 'must be unset: give the store a `prefix` instead' });
  }
  if (typeof prefix !== 'string' || prefix === '' || /[{}]/.test(prefix)) {
    issues.push({ path: ['prefix'], code: 'custom', message: 'must be a non-empty string without `{` or `}` (it is in the keys\' hash tags)' });
  }
  if (typeof shards !== 'number' || !Number.isInteger(shards) || shards < 1 || shards > 16_384) {
    issues.push({ path: ['shards'], code: 'custom', message: 'must be a whole number from 1 to 16384 (Redis Cluster has 16384 slots)' });
  }
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    issues.push({ path: ['timeoutMs'], code: 'custom', message: 'must be a positive number of milliseconds' });
  }
  if (issues.length > 0) throw new ValidationError(issues, 'redisStore arguments');
  return { prefix, shards, timeoutMs };
}

/**
 * A {@link ConversationStore} in Redis, shared by every instance that uses the same server
 * (or cluster), prefix and shards: the turns of one conversation can be recorded by
 * several processes, and what was ended survives a crash of any of them. Each method on
 * one conversation is one round trip (a Lua script run with EVALSHA, atomic); a sweep is
 * two per bucket that has something to claim, one per other bucket, all at once.
 *
 * `client` is a connected node-redis (>= 4) or ioredis (>= 5) client, a cluster client of
 * either (the keys spread over `shards` hash-tagged buckets, so over the masters), or an
 * `@upstash/redis` client (Redis over HTTP, for edge runtimes). docs/deployments.md says
 * which Redis settings (persistence, `maxmemory-policy`, cluster) give which guarantee.
 *
 * A call rejects with a {@link RedisStoreError}; its `code` is `'store_lost'` when Redis
 * lost the store's data (restart without persistence, flush, eviction): the call then did
 * nothing, and the message names what this instance had stored there.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { redisStore } from 'nebuly-client/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const nebuly = new NebulyClient({ recorder: { store: redisStore(redis, { prefix: 'nebuly:' }) } });
 * ```
 */
export function redisStore(client: RedisClient, options: RedisStoreOptions = {}): ConversationStore {
  const { prefix, shards, timeoutMs } = checkOptions(client, options);
  return new RedisStore(redisCommands(client, timeoutMs), new Buckets(prefix, shards));
}

/** A conversation a sweep may claim, as a bucket's sorted sets name it. */
interface Candidate {
  readonly bucket: Bucket;
  /** `l`: an expired lease (`<claim id> <conversation id>`), `i`: an idle open conversation (by conversation id). */
  readonly kind: 'l' | 'i';
  readonly member: string;
  /** Its score as read, which the claim checks is unchanged. */
  readonly score: string;
}

/** A retention end Redis can read: `Infinity` (kept for good) as the largest safe integer. */
const finite = (until: number) => (Number.isFinite(until) ? until : Number.MAX_SAFE_INTEGER);

/** The (interaction id, JSON of what `sent()` answers) pairs the kept hash holds. */
function keptPairs(endUser: string, interactions: readonly StoredInteraction[], retainUntil: number): string[] {
  const pairs: string[] = [];
  for (const { id, interaction } of interactions) {
    const kept: Kept = {
      endUser,
      input: interaction.input,
      output: interaction.output,
      timeStart: interaction.time_start,
      timeEnd: interaction.time_end,
      until: finite(retainUntil),
    };
    pairs.push(id, JSON.stringify(kept));
  }
  return pairs;
}

/** A store error's message without its `Redis store <operation>: `, to be joined into another. */
const unprefixed = (message: string) => message.replace(/^Redis store \w+: /, '');

/** A claim id from a token (`<claim id> <nonce>`): which hash holds the claim. */
const claimIdOf = (token: string) => token.slice(0, token.indexOf(' '));

class RedisStore implements ConversationStore {
  readonly shared = true;
  readonly #commands: RedisCommands;
  readonly #buckets: Buckets;
  readonly #epochs = new Epochs();
  /** Calls that may have told a loss whose reply never came: a sweep asks (see `Doubts`). */
  readonly #doubts = new Doubts(REPLAY_WINDOW_MS);

  constructor(commands: RedisCommands, buckets: Buckets) {
    this.#commands = commands;
    this.#buckets = buckets;
  }

  /** Runs `script` on `bucket` with its epoch checked: the script's result. */
  async #run(operation: string, bucket: Bucket, script: 'append' | 'attach' | 'claim' | 'claimCandidates', keys: string[], args: string[]) {
    for (;;) {
      const sent = this.#epochs.seen(bucket);
      const reply = await this.#commands.run(operation, script, keys, [sent, this.#epochs.fresh(), ...args]);
      const result = this.#epochs.settle(operation, bucket, sent, reply);
      if (result instanceof Loss) throw await this.#told(operation, result);
      // A loss another call of this instance reported already: this call did nothing yet.
      if (result !== AGAIN) return result;
    }
  }

  /**
   * The `store_lost` error telling `loss`: Redis says (the `lost` script, one step) which
   * of the conversations this instance stored there it lost, and marks them told, so that
   * no other caller tells them again and none told is sent; those still whole are swept
   * again. When Redis cannot be asked, each is named as lost unless sent.
   */
  async #told(operation: string, loss: Loss): Promise<RedisStoreError> {
    const ids = loss.conversationIds;
    if (ids.length === 0) return this.#epochs.told(operation, loss);
    const { bucket } = loss;
    const keys = [bucket.idle];
    const args = [this.#epochs.fresh()];
    for (const id of ids) {
      keys.push(bucket.open(id), bucket.kept(id));
      args.push(id, loss.ledger.conversations.get(id)!.generations.join(' '));
    }
    try {
      const [epoch, verdicts] = (await this.#commands.run(operation, 'lost', keys, args)) as [unknown, unknown[]];
      this.#epochs.learned(bucket, String(epoch));
      return this.#epochs.told(operation, loss, new Map(ids.map((id, index) => [id, String(verdicts[index]) as Verdict])));
    } catch {
      return this.#epochs.told(operation, loss);
    }
  }

  /**
   * `call`, whose tellers (bucket, conversation id, teller: see TOLD in scripts.ts) are
   * in doubt if it rejects for any reason but a loss it told: it may have run.
   */
  async #doubting<T>(call: Promise<T>, tellers: readonly (readonly [Bucket, string, string])[]): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (!(error instanceof RedisStoreError && error.code === 'store_lost')) {
        for (const [bucket, conversationId, teller] of tellers) this.#doubts.add(bucket, conversationId, teller);
      }
      throw error;
    }
  }

  /**
   * The conversations that calls in doubt told lost, by bucket, each now told by the
   * caller; none when Redis cannot be asked (asked again at the next sweep).
   */
  async #toldInDoubt(): Promise<Map<Bucket, string[]>> {
    const told = new Map<Bucket, string[]>();
    await Promise.all(
      [...this.#doubts.due()].map(async ([bucket, due]) => {
        const keys = due.map((doubt) => bucket.kept(doubt.conversationId));
        let reply: unknown[];
        try {
          reply = (await this.#commands.run('claimIdle', 'told', keys, due.map((doubt) => doubt.teller))) as unknown[];
        } catch {
          return;
        }
        for (const [index, doubt] of due.entries()) {
          const found = Number(reply[2 * index]) === 1;
          this.#doubts.answered(doubt, found);
          if (!found) continue;
          // Told lost here: no loss of the bucket names that generation again.
          this.#epochs.forget(bucket, doubt.conversationId, String(reply[2 * index + 1] ?? ''));
          const named = told.get(bucket);
          if (named === undefined) told.set(bucket, [doubt.conversationId]);
          else named.push(doubt.conversationId);
        }
      }),
    );
    return told;
  }

  async append(conversationId: string, endUser: string, interactions: readonly StoredInteraction[], now: number): Promise<void> {
    const bucket = this.#buckets.of(conversationId);
    const args = [conversationId, endUser, String(now), newId()];
    for (const stored of interactions) args.push(stored.id, JSON.stringify(stored));
    const keys = [bucket.idle, bucket.open(conversationId), bucket.kept(conversationId)];
    // The new generation's id names this call as a teller (see `Doubts`).
    const reply = await this.#doubting(this.#run('append', bucket, 'append', keys, args), [[bucket, conversationId, args[3]!]]);
    const [added, generation] = reply as [unknown, unknown];
    if (Number(added) === -1) throw this.#replaced(bucket, conversationId, String(generation ?? ''));
    this.#epochs.stored(bucket, conversationId, Number(added), now, String(generation ?? ''));
  }

  async attach(conversationId: string, interactionId: string, attachment: Attachment, now: number): Promise<boolean> {
    const bucket = this.#buckets.of(conversationId);
    const [field, json] = attachment.kind === 'feedback' ? ['f', JSON.stringify(attachment.action)] : ['t', JSON.stringify(attachment.tags)];
    const args = [conversationId, interactionId, field, json, String(now)];
    return Number(await this.#run('attach', bucket, 'attach', [bucket.idle, bucket.open(conversationId)], args)) === 1;
  }

  async claim(conversationId: string, now: number, leaseMs: number): Promise<ConversationClaim | undefined> {
    const bucket = this.#buckets.of(conversationId);
    const claimId = newId();
    const keys = [bucket.idle, bucket.open(conversationId), bucket.claim(claimId), bucket.kept(conversationId)];
    const token = `${claimId} ${newId()}`;
    const args = [conversationId, String(now), String(now + leaseMs), claimId, token];
    const reply = await this.#doubting(this.#run('claim', bucket, 'claim', keys, args), [[bucket, conversationId, token]]);
    const [kind, , generation] = Array.isArray(reply) ? (reply as unknown[]) : [];
    // Told lost here: no loss of the bucket names that generation again.
    if (kind === 'm') {
      this.#epochs.forget(bucket, conversationId, String(generation ?? ''));
      throw this.#missing('claim', new Map([[bucket, [conversationId]]]));
    }
    if (kind !== 'c') return undefined;
    const claim = decodeClaim('claim', reply);
    // Claimed: what it stored of that generation is in the claim.
    this.#epochs.forget(bucket, conversationId, claim.generation);
    return claim;
  }

  /**
   * Reads every bucket's candidates (expired leases, idle conversations) at once, takes
   * the `limit` first (expired leases first, then the idlest), and claims them, one
   * script per bucket. A candidate whose data is gone (evicted) is removed, so that no
   * sweep meets it again, and reported: the call gives back what it claimed and rejects.
   */
  async claimIdle(idleBefore: number, now: number, leaseMs: number, limit: number): Promise<ConversationClaim[]> {
    if (!(limit >= 1)) return [];
    // What calls without a reply told first: no one else will (see `Doubts`).
    const inDoubt = await this.#toldInDoubt();
    if (inDoubt.size > 0) throw this.#missing('claimIdle', inDoubt);
    const count = String(Math.floor(limit));
    /** Buckets Redis lost since this instance last used them: reported even when no append goes there again. */
    const losses: Promise<RedisStoreError>[] = [];
    const reads = await Promise.allSettled(
      this.#buckets.all.map(async (bucket) => {
        const sent = this.#epochs.seen(bucket);
        const reply = await this.#commands.run('claimIdle', 'candidates', [bucket.idle], [String(now), score(idleBefore), count]);
        const [leases, idle, epoch] = reply as [unknown[], unknown[], unknown];
        const loss = this.#epochs.check(bucket, sent, String(epoch));
        if (loss !== undefined) losses.push(this.#told('claimIdle', loss));
        const candidates: Candidate[] = [];
        for (let index = 0; index + 1 < leases.length; index += 2) candidates.push({ bucket, kind: 'l', member: String(leases[index]), score: String(leases[index + 1]) });
        for (let index = 0; index + 1 < idle.length; index += 2) candidates.push({ bucket, kind: 'i', member: String(idle[index]), score: String(idle[index + 1]) });
        return candidates;
      }),
    );
    // A loss first: its epoch is the one seen now, so it would not be told again.
    if (losses.length > 0) {
      const lost = await Promise.all(losses);
      const more = lost.length > 1 ? ` (and ${lost.length - 1} more bucket(s): ${lost.slice(1).map((loss) => unprefixed(loss.message)).join(' | ')})` : '';
      throw new RedisStoreError('claimIdle', 'store_lost', `${unprefixed(lost[0]!.message)}${more}`);
    }
    const unread = reads.find((result) => result.status === 'rejected');
    if (unread !== undefined) throw unread.reason;
    const read = reads.map((result) => (result as PromiseFulfilledResult<Candidate[]>).value);
    const chosen = read
      .flat()
      .sort((a, b) => (a.kind === b.kind ? scoreOf(a.score) - scoreOf(b.score) : a.kind === 'l' ? -1 : 1))
      .slice(0, Math.floor(limit));
    const byBucket = new Map<Bucket, (Candidate & { claimId: string })[]>();
    /** Each claim's place in `chosen`, by claim id: the buckets answer in any order. */
    const rank = new Map<string, number>();
    for (const [index, candidate] of chosen.entries()) {
      const claimId = candidate.kind === 'l' ? claimIdOf(candidate.member) : newId();
      rank.set(claimId, index);
      byBucket.set(candidate.bucket, [...(byBucket.get(candidate.bucket) ?? []), { ...candidate, claimId }]);
    }

    const claims: ConversationClaim[] = [];
    const missing = new Map<Bucket, string[]>();
    const settled = await Promise.allSettled(
      [...byBucket].map(async ([bucket, candidates]) => {
        const keys = [bucket.idle];
        const args = [String(now), String(now + leaseMs)];
        const tellers: [Bucket, string, string][] = [];
        for (const { claimId, ...candidate } of candidates) {
          // A lease's member is `<claim id> <conversation id>`: its claim mark is in that conversation's kept hash.
          const conversationId = candidate.kind === 'l' ? candidate.member.slice(claimId.length + 1) : candidate.member;
          if (candidate.kind === 'l') keys.push(bucket.claim(claimId), bucket.claim(claimId), bucket.kept(conversationId));
          else keys.push(bucket.open(conversationId), bucket.claim(claimId), bucket.kept(conversationId));
          const token = `${claimId} ${newId()}`;
          args.push(candidate.kind, candidate.member, candidate.score, claimId, token);
          tellers.push([bucket, conversationId, token]);
        }
        const reply = await this.#doubting(this.#run('claimIdle', bucket, 'claimCandidates', keys, args), tellers);
        for (const one of Array.isArray(reply) ? (reply as unknown[][]) : []) {
          if (one[0] === 'c') {
            const claim = decodeClaim('claimIdle', one);
            this.#epochs.forget(bucket, claim.conversationId, claim.generation);
            claims.push(claim);
          } else {
            // A conversation (open or claimed) told lost here: no loss of the bucket names it again.
            this.#epochs.forget(bucket, String(one[1]), String(one[2] ?? ''));
            missing.set(bucket, [...(missing.get(bucket) ?? []), String(one[1])]);
          }
        }
      }),
    );
    const reasons = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    claims.sort((a, b) => rank.get(claimIdOf(a.token))! - rank.get(claimIdOf(b.token))!);
    if (reasons.length === 0 && missing.size === 0) return claims;
    // Nothing claimed is kept from the caller: what this call took goes back at once; what
    // Redis evicted meanwhile is lost, told with the rest.
    for (const given of await Promise.allSettled(claims.map((claim) => this.#release(claim, true)))) {
      if (given.status === 'rejected' && given.reason instanceof RedisStoreError && given.reason.code === 'store_lost') reasons.push(given.reason);
    }
    // Every loss is told, in one error: each was told here alone (its bucket's epoch is
    // the one seen now, its entries and marks are gone). Another failure, only if none.
    const told = reasons.filter((reason) => reason instanceof RedisStoreError && reason.code === 'store_lost') as RedisStoreError[];
    if (missing.size > 0) told.unshift(this.#missing('claimIdle', missing));
    if (told.length === 0) throw reasons[0];
    if (told.length === 1) throw told[0];
    throw new RedisStoreError('claimIdle', 'store_lost', told.map((loss) => unprefixed(loss.message)).join('; and '));
  }

  async complete(claim: ConversationClaim, retainUntil: number): Promise<void> {
    const bucket = this.#buckets.of(claim.conversationId);
    const claimId = claimIdOf(claim.token);
    const args = [claimId, claim.token, String(finite(retainUntil)), String(REPLAY_WINDOW_MS), claim.conversationId, ...keptPairs(claim.endUser, claim.interactions, retainUntil)];
    await this.#commands.run('complete', 'complete', [bucket.claim(claimId), bucket.idle, bucket.kept(claim.conversationId)], args);
  }

  async keep(conversationId: string, endUser: string, interactions: readonly StoredInteraction[], now: number, retainUntil: number): Promise<void> {
    const args = [String(now), String(finite(retainUntil)), String(REPLAY_WINDOW_MS), ...keptPairs(endUser, interactions, retainUntil)];
    await this.#commands.run('keep', 'keep', [this.#buckets.of(conversationId).kept(conversationId)], args);
  }

  release(claim: ConversationClaim): Promise<void> {
    return this.#release(claim, false);
  }

  /** Gives `claim` back; `fresh` when its lease cannot have run out (this store just claimed it). */
  async #release(claim: ConversationClaim, fresh: boolean): Promise<void> {
    const bucket = this.#buckets.of(claim.conversationId);
    const claimId = claimIdOf(claim.token);
    const keys = [bucket.claim(claimId), bucket.idle, bucket.open(claim.conversationId), bucket.kept(claim.conversationId)];
    const args = [claimId, claim.token, claim.conversationId, fresh ? '1' : ''];
    const released = Number(await this.#doubting(this.#commands.run('release', 'release', keys, args), [[bucket, claim.conversationId, claim.token]]));
    // Unsent again, this instance's to tell should Redis lose it.
    if (released === 1) this.#epochs.stored(bucket, claim.conversationId, claim.interactions.length, claim.lastActivityAt, claim.generation);
    // Given back after Redis evicted it: lost, and told here alone (its lease and mark are gone).
    if (released === -1) throw this.#missing('release', new Map([[bucket, [claim.conversationId]]]));
  }

  async sent(conversationId: string, interactionId: string, now: number): Promise<SentInteraction | undefined> {
    const value = await this.#commands.run('sent', 'sent', [this.#buckets.of(conversationId).kept(conversationId)], [interactionId]);
    // `''`: appended, not sent yet.
    if (typeof value !== 'string' || value === '') return undefined;
    const { until, ...sent } = JSON.parse(value) as Kept;
    return until > now ? sent : undefined;
  }

  /** A `store_lost` error for conversations whose data Redis no longer had (evicted), by bucket: each told here alone. */
  #missing(operation: string, missing: ReadonlyMap<Bucket, readonly string[]>): RedisStoreError {
    const total = [...missing.values()].flat().length;
    const named = [...missing].map(([bucket, members]) => `${members.join(', ')} in bucket ${bucket.tag}`).join('; ');
    return new RedisStoreError(
      operation,
      'store_lost',
      `Redis lost the data of ${total} conversation(s) (evicted: see maxmemory-policy in docs/deployments.md): ` +
        `${named}; their entries are removed`,
    );
  }

  /**
   * The `store_lost` error of an append that met `conversationId` open but its hash
   * evicted: told here alone (the script removed its entry and mark), with what this
   * instance had stored of it; the append stored nothing (its turn is reported on its own).
   */
  #replaced(bucket: Bucket, conversationId: string, generation: string): RedisStoreError {
    const stored = this.#epochs.take(bucket, conversationId, generation);
    const known = stored === undefined ? '' : `; this instance had stored ${stored.interactions} interaction(s) of it since ${new Date(stored.since).toISOString()}`;
    return new RedisStoreError(
      'append',
      'store_lost',
      `Redis lost the data of conversation ${conversationId} in bucket ${bucket.tag} (evicted: see maxmemory-policy in docs/deployments.md): ` +
        `the turns stored of it before are lost; this turn was not stored (the next one starts the conversation anew)${known}`,
    );
  }
}
