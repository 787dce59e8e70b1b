import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Buckets } from '../../src/redis/buckets.js';
import { RedisStoreError, redisStore } from '../../src/redis/index.js';
import type { ConversationStore } from '../../src/types/store.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { CLIENTS, freshPrefix, type TestClient } from './redis-clients.js';
import { stored } from './store-contract.js';

// Redis misbehaving while it runs: flushed, full, evicting, stalled. A server of this
// file's own (its settings change), node-redis 6 and ioredis 6 clients.
let server: RedisServer;
const connected: TestClient[] = [];

interface Admin {
  configSet(name: string, value: string): Promise<unknown>;
  flushAll(): Promise<unknown>;
  info(section: string): Promise<string>;
}
const admin = () => connected[0]!.client as unknown as Admin;

beforeAll(async () => {
  server = await startRedisServer({ own: true });
  for (const { name, connect } of CLIENTS) if (name === 'node-redis 6' || name === 'ioredis 6') connected.push(await connect(server.url));
});

afterEach(async () => {
  server.resume();
  await admin().configSet('maxmemory', '0');
  await admin().configSet('maxmemory-policy', 'noeviction');
});

afterAll(async () => {
  for (const client of connected) await client.close();
  await server?.stop();
});

const rejection = (work: unknown) => Promise.resolve(work).then(() => undefined, (error: unknown) => error as RedisStoreError);

/** An interaction of about `bytes` bytes. */
const big = (id: string, bytes: number) => stored(id, `${id} ${'x'.repeat(bytes)}`);

const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await admin().info('memory'))![1]);

/**
 * Claims until a sweep finds nothing, completing each claim: the ids claimed, and the
 * store_lost errors met. Each sweep a lease later than the one before: a lease left
 * (its claim hash evicted before it could be given back) has run out by the next.
 */
async function drain(store: ConversationStore, limit: number, maxSweeps: number) {
  const claimed: string[] = [];
  const lost: RedisStoreError[] = [];
  for (let sweep = 0; sweep < maxSweeps; sweep += 1) {
    const now = 1e9 + sweep * 60_001;
    let claims;
    try {
      claims = await store.claimIdle(Number.POSITIVE_INFINITY, now, 60_000, limit);
    } catch (error) {
      if (!(error instanceof RedisStoreError) || error.code !== 'store_lost') throw error;
      lost.push(error);
      continue;
    }
    if (claims.length === 0) return { claimed, lost, done: true };
    for (const claim of claims) {
      claimed.push(claim.conversationId);
      await store.complete(claim, now + 60_000);
    }
  }
  return { claimed, lost, done: false };
}

describe('redisStore when Redis loses its data', () => {
  it('after a FLUSHALL, each instance that stored there is told what it lost; a new instance is not; then it works', async () => {
    const prefix = freshPrefix();
    const [first, second, sweeper] = [...connected, connected[0]!].map(({ client }) => redisStore(client, { prefix, shards: 2 }));
    for (let index = 0; index < 6; index += 1) await first!.append(`chat-${index}`, 'u', [stored(`a${index}`)], 1_000 + index);
    await second!.append('chat-0', 'u', [stored('b0')], 2_000);
    // A sweeper that found nothing idle yet, but read every bucket.
    expect(await sweeper!.claimIdle(0, 2_000, 1_000, 10)).toEqual([]);
    await admin().flushAll();

    // The sweeper's next sweep tells of every bucket it had read, though nothing is written there again.
    const swept = await rejection(sweeper!.claimIdle(Number.POSITIVE_INFINITY, 2_500, 1_000, 10));
    expect(swept?.code).toBe('store_lost');
    expect(swept?.message).toMatch(/^Redis store claimIdle: Redis lost the store's data in bucket \{test:[\d:]+[01]\} .*\(and 1 more bucket\(s\): Redis lost the store's data in bucket/);
    expect(await sweeper!.claimIdle(Number.POSITIVE_INFINITY, 2_600, 1_000, 10)).toEqual([]);

    // All at once: the first call to meet the loss in each bucket reports it; the others,
    // in flight with it, run on the new epoch.
    const failures = await Promise.all([0, 1, 2, 3, 4, 5].map((index) => rejection(first!.append(`chat-${index}`, 'u', [stored(`c${index}`)], 3_000))));
    const lost = failures.filter((failure) => failure !== undefined);
    const buckets = new Buckets(prefix, 2);
    expect(lost.length).toBe(new Set([0, 1, 2, 3, 4, 5].map((index) => buckets.of(`chat-${index}`))).size);
    for (const failure of lost) {
      expect(failure.code).toBe('store_lost');
      expect(failure.message).toMatch(/Redis lost the store's data in bucket \{test:[\d:]+[01]\}/);
      expect(failure.message).toMatch(/this instance had stored \d interaction\(s\) there since 1970-01-01T00:00:01\.00\dZ, of conversation\(s\) chat-\d/);
    }
    // The second instance had stored in chat-0's bucket: it is told too, by its next call there.
    const secondLost = await rejection(second!.claim('chat-0', 4_000, 1_000));
    expect(secondLost?.code).toBe('store_lost');
    expect(secondLost?.message).toMatch(/had stored 1 interaction\(s\) there since .*of conversation\(s\) chat-0;/);
    // A new instance lost nothing, and is told nothing.
    const third = redisStore(connected[1]!.client, { prefix, shards: 2 });
    await third.append('chat-9', 'u', [stored('d9')], 5_000);
    // What the reporting calls did not store is not there; the others are.
    const claims = await third.claimIdle(Number.POSITIVE_INFINITY, 6_000, 1_000, 100);
    const ids = claims.flatMap((claim) => claim.interactions.map((one) => one.id)).sort();
    expect(ids.length).toBe(6 - lost.length + 1);
    expect(ids.filter((id) => id.startsWith('a'))).toEqual([]);
    expect(ids).toContain('d9');
  });
});

describe('redisStore when Redis is full (maxmemory-policy noeviction)', () => {
  it('refuses appends (out_of_memory) but still claims, completes and releases: the store drains, then takes appends again', async () => {
    const store = redisStore(connected[1]!.client, { prefix: freshPrefix(), shards: 4 });
    for (let index = 0; index < 20; index += 1) await store.append(`full-${index}`, 'u', [big(`f${index}`, 50_000)], index);
    await admin().configSet('maxmemory-policy', 'noeviction');
    await admin().configSet('maxmemory', String((await usedMemory()) - 200_000));

    const refused = await rejection(store.append('full-0', 'u', [big('more', 1_000)], 100));
    expect(refused?.code).toBe('out_of_memory');
    // A claim by id, a sweep, a release and completions keeping what feedback needs: all run.
    const byId = await store.claim('full-0', 200, 60_000);
    expect(byId?.interactions.map((one) => one.id)).toEqual(['f0']);
    const swept = await store.claimIdle(Number.POSITIVE_INFINITY, 200, 60_000, 100);
    expect(swept.length).toBe(19);
    await store.release(swept[0]!);
    const again = await store.claimIdle(Number.NEGATIVE_INFINITY, 201, 60_000, 100);
    expect(again.map((claim) => claim.conversationId)).toEqual([swept[0]!.conversationId]);
    // One keeps its interaction for late feedback (written once the claim is freed), the others nothing.
    await store.complete(byId!, 200 + 86_400_000);
    expect(await store.sent('full-0', 'f0', 300)).toMatchObject({ endUser: 'u', output: 'out f0' });
    for (const claim of [...again, ...swept.slice(1)]) await store.complete(claim, 200);
    // Drained: room again.
    await store.append('full-0', 'u', [big('more', 1_000)], 400);
    expect((await store.claim('full-0', 500, 60_000))?.interactions.map((one) => one.id)).toEqual(['more']);
  });
});

describe('redisStore when Redis evicts its keys (maxmemory-policy allkeys-lru)', () => {
  it('no sweep fails twice at an evicted entry: every conversation is claimed or told lost, once, and the sweeps end', async () => {
    const prefix = freshPrefix();
    const store = redisStore(connected[0]!.client, { prefix, shards: 4 });
    await admin().configSet('maxmemory-policy', 'allkeys-lru');
    await admin().configSet('maxmemory', String((await usedMemory()) + 1_000_000));
    const CONVERSATIONS = 120;
    const ids = Array.from({ length: CONVERSATIONS }, (_, index) => `lru-${index}`);
    // An evicted bucket index (with its epoch) is reported by the next call there: a
    // store_lost for the bucket, naming what this instance lost there; the append that
    // met it did nothing.
    const lostBuckets = new Set<string>();
    const told: RedisStoreError[] = [];
    /** The conversations whose append met a loss: not stored, and so told (the recorder reports the turn with its payload). */
    const refused: string[] = [];
    for (const [index, id] of ids.entries()) {
      const failure = await rejection(store.append(id, 'u', [big(`l${index}`, 20_000)], index));
      if (failure === undefined) continue;
      expect(failure.code).toBe('store_lost');
      lostBuckets.add(/in bucket (\{.*?\})/.exec(failure.message)![1]!);
      told.push(failure);
      refused.push(id);
    }

    const { claimed, lost, done } = await drain(store, 8, 200);
    expect(done).toBe(true);
    told.push(...lost);
    // Something was evicted, and reported: each conversation is claimed once, or named
    // lost (once, by one report), or was in a bucket reported lost; none is both claimed and named.
    expect(told.length).toBeGreaterThan(0);
    const named = told.flatMap((error) => [...error.message.matchAll(/lru-\d+/g)].map((match) => match[0]));
    for (const error of lost) lostBuckets.add(/in bucket (\{.*?\})/.exec(error.message)![1]!);
    expect(new Set(named).size).toBe(named.length);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(named.filter((id) => claimed.includes(id))).toEqual([]);
    // Counted, with those a report names only by number (`and 3 more`, a claim by its
    // id): every conversation claimed or told, once.
    const counted = told.reduce((sum, error) => sum + toldCount(error.message), 0) + refused.length;
    expect(claimed.length + counted).toBe(CONVERSATIONS);
    const buckets = new Buckets(prefix, 4);
    const unaccounted = ids.filter((id) => !claimed.includes(id) && !named.includes(id) && !lostBuckets.has(buckets.of(id).tag));
    expect(unaccounted).toEqual([]);
    process.stdout.write(
      `allkeys-lru: ${CONVERSATIONS} conversations, ${claimed.length} claimed, ${counted} told lost (${named.length} by name) by ${told.length} reports, ` +
        `${CONVERSATIONS - claimed.length - counted} neither, ${lostBuckets.size} bucket(s) reported lost\n`,
    );
  });
});

/** How many conversations a store_lost message tells lost: named, and counted (`and 5 more`, `the data of 3 conversation(s)`). */
function toldCount(message: string): number {
  const evicted = [...message.matchAll(/lost the data of (\d+) conversation\(s\)/g)].reduce((sum, [, count]) => sum + Number(count), 0);
  return [...message.matchAll(/of conversation\(s\) (.*?); those not yet sent are lost/g)].reduce((sum, [, list]) => {
    const more = /and (\d+) more/.exec(list!);
    return sum + (list!.match(/lru-\d+/g)?.length ?? 0) + (more === null ? 0 : Number(more[1]));
  }, evicted);
}

describe('redisStore when an append times out and lands later', () => {
  it('stores it once: the replay of the same append adds nothing, before or after its conversation was sent', async () => {
    for (const { name, client } of connected) {
      const store = redisStore(client, { prefix: freshPrefix(), timeoutMs: 300 });
      await store.append('slow', 'u', [stored('a')], 0);
      server.pause();
      const timedOut = await rejection(store.append('slow', 'u', [stored('b')], 1));
      expect(timedOut?.code, name).toBe('timeout');
      server.resume();
      // The recorder may try again: a replay of the same interaction.
      await store.append('slow', 'u', [stored('b')], 2);
      const claim = await store.claim('slow', 3, 60_000);
      expect(claim?.interactions.map((one) => one.id), name).toEqual(['a', 'b']);
      await store.complete(claim!, 3);
      // Landing again after it was sent (without feedback retention) starts nothing new.
      await store.append('slow', 'u', [stored('b')], 4);
      expect(await store.claim('slow', 5, 60_000), name).toBeUndefined();
    }
  });
});
