import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { redisStore } from '../../src/redis/index.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { CLIENTS, freshPrefix, type TestClient } from './redis-clients.js';
import { describeStoreContract, stored } from './store-contract.js';

let server: RedisServer;
const connected = new Map<string, TestClient>();

beforeAll(async () => {
  server = await startRedisServer();
  for (const { name, connect } of CLIENTS) connected.set(name, await connect(server.url));
});

afterAll(async () => {
  for (const client of connected.values()) await client.close();
  await server?.stop();
});

for (const { name } of CLIENTS) {
  describeStoreContract({
    name: `redisStore over ${name}`,
    make: async () => redisStore(connected.get(name)!.client, { prefix: freshPrefix() }),
  });
}

describe('redisStore', () => {
  it('is shared: conversations outlive the process', () => {
    expect(redisStore(connected.get('node-redis 6')!.client).shared).toBe(true);
  });

  it('sees what another client (another instance) stored: one conversation across clients of both libraries', async () => {
    const prefix = freshPrefix();
    const stores = CLIENTS.map(({ name }) => redisStore(connected.get(name)!.client, { prefix }));
    for (const [index, store] of stores.entries()) await store.append('chat', 'u', [stored(`t${index}`)], 1_000 + index);
    expect(await stores[0]!.attach('chat', 't3', { kind: 'feedback', action: { slug: 'thumbs_up' } }, 2_000)).toBe(true);
    const claim = await stores[2]!.claim('chat', 3_000, 60_000);
    expect(claim?.interactions.map((i) => i.id)).toEqual(['t0', 't1', 't2', 't3']);
    expect(claim?.interactions[3]?.interaction.feedback_actions).toEqual([{ slug: 'thumbs_up' }]);
    await stores[1]!.complete(claim!, 10_000);
    expect(await stores[3]!.sent('chat', 't1', 3_000)).toMatchObject({ endUser: 'u', input: 'in t1' });
  });

  it('gives back JSON-safe interactions equal, whatever they hold', async () => {
    const store = redisStore(connected.get('ioredis 6')!.client, { prefix: freshPrefix() });
    const interaction = {
      ...stored('x').interaction,
      input: 'naïve {tag} "quoted" \u0000 \ud83d\ude00 ,]',
      trace: [{ model: 'm', messages: [], input_tokens: 12345678901234, output_tokens: 0.1 + 0.2 }],
      tags: { '{}': '', empty: '' },
      feedback_actions: [{ slug: 'rating', value: 1.5 }],
    } as never;
    await store.append('c', 'u', [{ id: 'x', interaction }], 0);
    await store.attach('c', 'x', { kind: 'feedback', action: { slug: 'comment', text: 'a,b' } }, 1);
    const claim = await store.claim('c', 2, 1_000);
    expect(claim?.interactions[0]?.interaction).toEqual({
      ...(interaction as object),
      feedback_actions: [{ slug: 'rating', value: 1.5 }, { slug: 'comment', text: 'a,b' }],
    });
  });

  it('keys every key with a bucket\'s hash tag {prefix<n>}, n below shards, one conversation in one bucket', async () => {
    const { client } = connected.get('node-redis 6')!;
    const prefix = freshPrefix();
    const store = redisStore(client, { prefix, shards: 8 });
    for (let index = 0; index < 40; index += 1) await store.append(`c${index}`, 'u', [stored(`a${index}`)], index);
    await store.attach('c1', 'a1', { kind: 'feedback', action: { slug: 'thumbs_up' } }, 100);
    await store.complete((await store.claim('c1', 101, 1_000))!, 60_000);
    await store.claim('c2', 102, 1_000);
    const keys = await (client as unknown as { keys(pattern: string): Promise<string[]> }).keys(`*${prefix}*`);
    const tags = new Set<string>();
    for (const key of keys) {
      const tag = /^\{(.*?)\}/.exec(key)?.[1];
      expect(tag?.startsWith(prefix), key).toBe(true);
      expect(Number(tag!.slice(prefix.length))).toBeLessThan(8);
      tags.add(tag!);
    }
    // 40 conversations over 8 buckets: every bucket used.
    expect(tags.size).toBe(8);
    for (const id of ['c1', 'c2', 'c3']) {
      const own = keys.filter((key) => key.endsWith(`:${id}`));
      expect(own.length, id).toBeGreaterThan(0);
      expect(new Set(own.map((key) => /^\{.*?\}/.exec(key)![0])).size, id).toBe(1);
    }
  });

  it('removes what a completed conversation used, keeping what feedback needs with a TTL; open data has none', async () => {
    const { client } = connected.get('ioredis 6')!;
    const prefix = freshPrefix();
    const store = redisStore(client, { prefix, shards: 1 });
    const tag = `{${prefix}0}`;
    await store.append('c', 'u', [stored('a'), stored('b')], 0);
    await store.attach('c', 'a', { kind: 'feedback', action: { slug: 'thumbs_up' } }, 1);
    await store.complete((await store.claim('c', 2, 1_000))!, 2 + 7_200_000);
    const io = client as unknown as { keys(pattern: string): Promise<string[]>; pttl(key: string): Promise<number> };
    // The bucket's index (holding its epoch), and the sent interactions kept for late feedback.
    expect((await io.keys(`${tag}*`)).sort()).toEqual([`${tag}idle`, `${tag}k:c`]);
    const ttl = await io.pttl(`${tag}k:c`);
    expect(ttl).toBeGreaterThan(7_100_000);
    expect(ttl).toBeLessThanOrEqual(7_200_000);
    // Open conversations have no time to live: a volatile-* eviction policy never takes them.
    await store.append('open', 'u', [stored('o')], 3);
    await store.attach('open', 'o', { kind: 'feedback', action: { slug: 'thumbs_up' } }, 4);
    const open = (await io.keys(`${tag}*`)).filter((key) => key !== `${tag}k:c`).sort();
    expect(open).toEqual([`${tag}idle`, `${tag}k:open`, `${tag}o:open`]);
    for (const key of open) expect(await io.pttl(key)).toBe(-1);
  });

  it('remembers the ids of a sent conversation for at least an hour, so that a late replay of its append adds nothing', async () => {
    const { client } = connected.get('node-redis 6')!;
    const prefix = freshPrefix();
    const store = redisStore(client, { prefix, shards: 1 });
    await store.append('c', 'u', [stored('a')], 0);
    // Sent with no feedback retention at all.
    await store.complete((await store.claim('c', 1, 1_000))!, 1);
    const ttl = await (client as unknown as { pTTL(key: string): Promise<number> }).pTTL(`{${prefix}0}k:c`);
    expect(ttl).toBeGreaterThan(3_500_000);
    await store.append('c', 'u', [stored('a')], 2);
    expect(await store.claim('c', 3, 1_000)).toBeUndefined();
    expect(await store.sent('c', 'a', 2)).toBeUndefined();
  });

  it('bounds claimIdle by its limit, expired leases first', async () => {
    const store = redisStore(connected.get('node-redis 4')!.client, { prefix: freshPrefix() });
    for (let index = 0; index < 5; index += 1) await store.append(`c${index}`, 'u', [stored(`i${index}`)], index);
    const leased = await store.claim('c4', 10, 100);
    const claims = await store.claimIdle(Number.POSITIVE_INFINITY, 200, 1_000, 3);
    expect(claims.map((claim) => claim.conversationId)).toEqual(['c4', 'c0', 'c1']);
    expect(claims[0]?.generation).toBe(leased?.generation);
    expect(new Set(claims.map((claim) => claim.token)).size).toBe(3);
    expect(await store.claimIdle(Number.POSITIVE_INFINITY, 200, 1_000, 0)).toEqual([]);
  });

  it('adds an interaction once, when an append that timed out runs late and was tried again meanwhile', async () => {
    const store = redisStore(connected.get('node-redis 6')!.client, { prefix: freshPrefix() });
    await store.append('c', 'u', [stored('a'), stored('b')], 0);
    await store.append('c', 'u', [stored('b'), stored('c')], 1);
    const claim = await store.claim('c', 2, 1_000);
    expect(claim?.interactions.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(claim?.lastActivityAt).toBe(1);
  });

  it('refuses what it cannot work with, naming the argument', () => {
    const client = connected.get('node-redis 6')!.client;
    expect(() => redisStore({} as never)).toThrow(ValidationError);
    expect(() => redisStore({} as never)).toThrow(/client must be a connected node-redis/);
    expect(() => redisStore(client, { prefix: '' })).toThrow(/prefix must be a non-empty string/);
    expect(() => redisStore(client, { prefix: 'a{b}' })).toThrow(/prefix must be .* without `\{`/);
    expect(() => redisStore(client, { timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/);
    expect(() => redisStore(client, { shards: 0 })).toThrow(/shards must be a whole number from 1 to 16384/);
    expect(() => redisStore(client, { shards: 2.5 })).toThrow(/shards must be a whole number/);
  });

  it('refuses an ioredis client made with keyPrefix, whose prefix the scripts would not see', async () => {
    const { Redis: IoRedis } = await import('ioredis');
    const client = new IoRedis(server.url, { lazyConnect: true, keyPrefix: 'app:' });
    expect(() => redisStore(client)).toThrow(/client\.options\.keyPrefix must be unset/);
  });
});

describe('nebuly-client/redis', () => {
  it('imports neither redis nor ioredis: both are optional peers, the user\'s client is passed in', () => {
    const folder = new URL('../../src/redis/', import.meta.url);
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
      // Without comments: the TSDoc examples import the clients, as users do.
      const code = readFileSync(new URL(file, folder), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      const specifiers = [...code.matchAll(/from\s+'([^']+)'|import\('([^']+)'\)/g)].map((match) => match[1] ?? match[2]);
      expect(specifiers.filter((specifier) => !specifier!.startsWith('.')), file).toEqual([]);
    }
  });
});
