import { ValidationError } from '../core/errors.js';
import type { ConversationClaim, ConversationStore, SentInteraction, StoredInteraction } from '../types/store.js';
import type { ConversationFeedbackAction } from '../schemas/index.js';
import { decodeClaim } from './claims.js';
import { type IoRedisClient, isRedisClient, type NodeRedisClient, type RedisCommands, redisCommands } from './commands.js';
import { SCRIPTS } from './scripts.js';

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /**
   * Starts every key of the store, as its hash tag: `{nebuly:}open`, …. Stores with
   * different prefixes share a server without meeting. No `{` or `}`.
   * @default 'nebuly:'
   */
  prefix?: string | undefined;
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
 * A random id for a generation or a lease token. Not the recorder's `newId`: importing it
 * here would split it into a chunk of its own, one more module for the main entry to load
 * (test/package/node-condition.test.ts); and the clients this store runs over need Node,
 * which always has `crypto.randomUUID`.
 */
const newId = () => globalThis.crypto.randomUUID();

/** A score or bound for a sorted set: Redis spells the infinities `+inf` and `-inf`. */
const score = (value: number) => (value === Number.POSITIVE_INFINITY ? '+inf' : value === Number.NEGATIVE_INFINITY ? '-inf' : String(value));

/** An ioredis client made with `keyPrefix`. */
function hasKeyPrefix(client: object): boolean {
  const keyPrefix = (client as { options?: { keyPrefix?: unknown } }).options?.keyPrefix;
  return typeof keyPrefix === 'string' && keyPrefix !== '';
}

function checkOptions(client: unknown, options: RedisStoreOptions): { prefix: string; timeoutMs: number } {
  const issues = [];
  const prefix = options.prefix ?? 'nebuly:';
  const timeoutMs = options.timeoutMs ?? 5_000;
  if (!isRedisClient(client)) {
    issues.push({ path: ['client'], code: 'custom', message: 'must be a connected node-redis (>= 4) or ioredis (>= 5) client' });
  } else if (hasKeyPrefix(client)) {
    // ioredis adds keyPrefix to KEYS but not to the key names the scripts build.
    issues.push({ path: ['client', 'options', 'keyPrefix'], code: 'custom', message: 'must be unset: give the store a `prefix` instead' });
  }
  if (typeof prefix !== 'string' || prefix === '' || /[{}]/.test(prefix)) {
    issues.push({ path: ['prefix'], code: 'custom', message: 'must be a non-empty string without `{` or `}` (it is the keys\' hash tag)' });
  }
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    issues.push({ path: ['timeoutMs'], code: 'custom', message: 'must be a positive number of milliseconds' });
  }
  if (issues.length > 0) throw new ValidationError(issues, 'redisStore arguments');
  return { prefix, timeoutMs };
}

/**
 * A {@link ConversationStore} in Redis, shared by every instance that uses the same server
 * and prefix: the turns of one conversation can be recorded by several processes, and
 * what was ended survives a crash of any of them. Each method is one round trip (a Lua
 * script run with EVALSHA, atomic); the writes of an ended turn are one `append`.
 *
 * `client` is a connected node-redis (>= 4) or ioredis (>= 5) client, or a cluster client
 * of either: all keys of one store share the hash tag `{prefix}`, so on Redis Cluster the
 * store lives on one shard. Use a server with `maxmemory-policy noeviction` (or a
 * `volatile-*` one): an evicted key is a lost conversation. docs/deployments.md says
 * what persistence settings mean on a crash.
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
export function redisStore(client: NodeRedisClient | IoRedisClient, options: RedisStoreOptions = {}): ConversationStore {
  const { prefix, timeoutMs } = checkOptions(client, options);
  return new RedisStore(redisCommands(client, timeoutMs), `{${prefix}}`);
}

class RedisStore implements ConversationStore {
  readonly shared = true;
  readonly #commands: RedisCommands;
  readonly #tag: string;
  /** The key every script names in KEYS, so that a cluster client sends it to the store's shard. */
  readonly #open: string;

  constructor(commands: RedisCommands, tag: string) {
    this.#commands = commands;
    this.#tag = tag;
    this.#open = `${tag}open`;
  }

  async append(conversationId: string, endUser: string, interactions: readonly StoredInteraction[], now: number): Promise<void> {
    const args = [this.#tag, conversationId, endUser, String(now), newId()];
    for (const stored of interactions) args.push(stored.id, JSON.stringify(stored));
    await this.#commands.run('append', SCRIPTS.append, [this.#open], args);
  }

  async addFeedback(conversationId: string, interactionId: string, action: ConversationFeedbackAction, now: number): Promise<boolean> {
    const args = [this.#tag, conversationId, interactionId, JSON.stringify(action), String(now)];
    return Number(await this.#commands.run('addFeedback', SCRIPTS.addFeedback, [this.#open], args)) === 1;
  }

  async claim(conversationId: string, now: number, leaseMs: number): Promise<ConversationClaim | undefined> {
    const args = [this.#tag, conversationId, String(now), String(now + leaseMs), newId()];
    const reply = await this.#commands.run('claim', SCRIPTS.claim, [this.#open], args);
    return reply === null || reply === undefined ? undefined : decodeClaim('claim', reply);
  }

  async claimIdle(idleBefore: number, now: number, leaseMs: number, limit: number): Promise<ConversationClaim[]> {
    if (!(limit >= 1)) return [];
    // One token stem per call; the script makes each claim's token unique with its index.
    const args = [this.#tag, score(idleBefore), String(now), String(now + leaseMs), String(Math.floor(limit)), `${newId()}:`];
    const reply = await this.#commands.run('claimIdle', SCRIPTS.claimIdle, [this.#open], args);
    return (Array.isArray(reply) ? reply : []).map((claim) => decodeClaim('claimIdle', claim));
  }

  async complete(claim: ConversationClaim, retainUntil: number): Promise<void> {
    const until = Number.isFinite(retainUntil) ? retainUntil : Number.MAX_SAFE_INTEGER;
    const args = [this.#tag, claim.generation, claim.token, String(until)];
    for (const { id, interaction } of claim.interactions) {
      const kept: Kept = { endUser: claim.endUser, input: interaction.input, output: interaction.output, timeEnd: interaction.time_end, until };
      args.push(this.#sentKey(claim.conversationId, id), JSON.stringify(kept));
    }
    await this.#commands.run('complete', SCRIPTS.complete, [this.#open], args);
  }

  async release(claim: ConversationClaim): Promise<void> {
    await this.#commands.run('release', SCRIPTS.release, [this.#open], [this.#tag, claim.generation, claim.token]);
  }

  async sent(conversationId: string, interactionId: string, now: number): Promise<SentInteraction | undefined> {
    const value = await this.#commands.get('sent', this.#sentKey(conversationId, interactionId));
    if (value === null) return undefined;
    const { until, ...sent } = JSON.parse(value) as Kept;
    return until > now ? sent : undefined;
  }

  /** The length of the conversation id first, so that no two (conversation, interaction) pairs share a key. */
  #sentKey(conversationId: string, interactionId: string): string {
    return `${this.#tag}s:${conversationId.length}:${conversationId}:${interactionId}`;
  }
}
