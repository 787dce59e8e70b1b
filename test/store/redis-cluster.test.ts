import { Cluster as IoCluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import type { IoRedisClient, NodeRedisClient } from '../../src/redis/index.js';
import type { ConversationClaim } from '../../src/types/store.js';
import { type RedisCluster, startRedisCluster } from '../helpers/redis-cluster.js';
import { freshPrefix } from './redis-clients.js';
import { describeStoreContract, stored } from './store-contract.js';

// One real 3-master cluster for the file, and a cluster client of each library.
let cluster: RedisCluster;
let nodeRedis: ReturnType<typeof createCluster>;
let ioRedis: IoCluster;
/** TRYAGAIN replies the clients got: the migration test checks it met some. */
let tryAgains = 0;

/** `client` with its script calls counted when they meet a slot half moved (TRYAGAIN). */
function observed<T extends object>(client: T, method: 'evalSha' | 'evalsha'): T {
  return new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name !== method || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          if (error instanceof Error && /TRYAGAIN/.test(error.message)) tryAgains += 1;
          throw error;
        }
      };
    },
  });
}

beforeAll(async () => {
  cluster = await startRedisCluster(3);
  nodeRedis = createCluster({ rootNodes: cluster.nodes.map(({ url }) => ({ url })) });
  nodeRedis.on('error', () => undefined);
  await nodeRedis.connect();
  ioRedis = new IoCluster(
    cluster.nodes.map(({ port }) => ({ host: '127.0.0.1', port })),
    { lazyConnect: true },
  );
  ioRedis.on('error', () => undefined);
  await ioRedis.connect();
}, 60_000);

afterAll(async () => {
  await nodeRedis?.close().catch(() => undefined);
  ioRedis?.disconnect();
  await cluster?.stop();
});

const clients = () => [
  { name: 'node-redis 6 createCluster', client: nodeRedis as unknown as NodeRedisClient },
  { name: 'ioredis 6 Cluster', client: ioRedis as unknown as IoRedisClient },
];

describeStoreContract({ name: 'redisStore over node-redis 6 createCluster', make: async () => redisStore(clients()[0]!.client, { prefix: freshPrefix() }) });
describeStoreContract({ name: 'redisStore over ioredis 6 Cluster', make: async () => redisStore(clients()[1]!.client, { prefix: freshPrefix() }) });

describe('redisStore on a 3-master Redis Cluster', () => {
  it('spreads its keys over the masters: at most 1.5 times the mean on any one', async () => {
    const prefix = freshPrefix();
    const store = redisStore(clients()[0]!.client, { prefix });
    const other = redisStore(clients()[1]!.client, { prefix });
    const appends = [];
    for (let index = 0; index < 300; index += 1) appends.push(store.append(`chat-${index}`, 'u', [stored(`t${index}`)], index));
    await Promise.all(appends);
    // Half of them sent, each keeping its interactions for late feedback.
    for (let index = 0; index < 300; index += 2) await other.complete((await other.claim(`chat-${index}`, 1_000, 60_000))!, 1_000 + 86_400_000);
    const perMaster = await Promise.all(cluster.nodes.map(async ({ admin }) => ((await admin.keys(`{${prefix}*`)) as string[]).length));
    const mean = perMaster.reduce((sum, keys) => sum + keys, 0) / perMaster.length;
    process.stdout.write(`keys per master, default shards (64): ${perMaster.join(', ')}; max/mean ${(Math.max(...perMaster) / mean).toFixed(2)}\n`);
    expect(Math.min(...perMaster)).toBeGreaterThan(0);
    expect(Math.max(...perMaster) / mean).toBeLessThanOrEqual(1.5);
  });

  it('sweeps every bucket: claimIdle finds open conversations wherever they live, idlest first', async () => {
    const store = redisStore(clients()[1]!.client, { prefix: freshPrefix() });
    for (let index = 0; index < 30; index += 1) await store.append(`c${index}`, 'u', [stored(`i${index}`)], 100 - index);
    const first = await store.claimIdle(Number.POSITIVE_INFINITY, 1_000, 60_000, 5);
    expect(first.map((claim) => claim.conversationId)).toEqual(['c29', 'c28', 'c27', 'c26', 'c25']);
    const rest = await store.claimIdle(Number.POSITIVE_INFINITY, 1_000, 60_000, 100);
    expect(rest.length).toBe(25);
    expect(await store.claimIdle(Number.POSITIVE_INFINITY, 1_000, 60_000, 100)).toEqual([]);
  });

  it('appends through a reshard of the store\'s slots with none failed, none lost, none twice', async () => {
    const prefix = freshPrefix();
    const stores = [
      redisStore(observed(clients()[0]!.client, 'evalSha'), { prefix, shards: 4 }),
      redisStore(observed(clients()[1]!.client, 'evalsha'), { prefix, shards: 4 }),
    ];
    const CONVERSATIONS = 40;
    // Data in every bucket before the slots move: each migration meets keys to move.
    for (let index = 0; index < CONVERSATIONS; index += 1) await stores[index % 2]!.append(`c${index}`, 'u', [stored(`c${index}-warm`)], 0);

    let appending = true;
    let appended = 0;
    const failures: unknown[] = [];
    const load = Array.from({ length: 8 }, async (_, worker) => {
      for (let turn = 0; appending; turn += 1) {
        const conversation = `c${(turn * 8 + worker) % CONVERSATIONS}`;
        try {
          await stores[(turn + worker) % 2]!.append(conversation, 'u', [stored(`${conversation}-${worker}-${turn}`)], turn + 1);
          appended += 1;
        } catch (error) {
          failures.push(error);
        }
      }
    });

    // Every bucket's slot to the next master, a key at a time, while the appends go on.
    let moved = 0;
    for (let bucket = 0; bucket < 4; bucket += 1) {
      const slot = await cluster.slotOf(`{${prefix}${bucket}}`);
      const owner = await cluster.ownerOf(slot);
      const next = cluster.nodes[(cluster.nodes.indexOf(owner) + 1) % cluster.nodes.length]!;
      moved += await cluster.migrateSlot(slot, next, { keysPerStep: 1, pauseMs: 5 });
    }
    appending = false;
    await Promise.all(load);

    process.stdout.write(`reshard under load: ${appended} appends, ${failures.length} failed, ${moved} keys moved, ${tryAgains} TRYAGAIN replies retried\n`);
    expect(failures).toEqual([]);
    expect(moved).toBeGreaterThan(CONVERSATIONS);
    // The appends did meet slots half moved, and went through them.
    expect(tryAgains).toBeGreaterThan(0);
    expect(appended).toBeGreaterThan(0);
    // Every append is in a claim, once.
    const claims: ConversationClaim[] = [];
    for (let batch = await stores[0]!.claimIdle(Number.POSITIVE_INFINITY, 1e9, 60_000, 100); batch.length > 0; batch = await stores[0]!.claimIdle(Number.POSITIVE_INFINITY, 1e9, 60_000, 100)) {
      claims.push(...batch);
    }
    const ids = claims.flatMap((claim) => claim.interactions.map((one) => one.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(CONVERSATIONS + appended);
  }, 120_000);
});
