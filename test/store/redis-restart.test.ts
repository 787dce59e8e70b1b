import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStoreError, redisStore } from '../../src/redis/index.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { CLIENTS, freshPrefix, type TestClient } from './redis-clients.js';
import { stored } from './store-contract.js';

let server: RedisServer;
const connected: TestClient[] = [];

beforeAll(async () => {
  // Always a server of our own: this file kills it.
  server = await startRedisServer({ own: true });
  for (const { connect } of CLIENTS) connected.push(await connect(server.url));
});

afterAll(async () => {
  for (const client of connected) await client.close();
  await server?.stop();
});

/** Until `attempt` resolves: a client reconnects on its own schedule after a restart. */
async function eventually<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * What `attempt` answers once the server is reachable again: its value, or the error it
 * rejected with once that is not the connection's (`timeout`, `failed`).
 */
async function answered<T>(attempt: () => Promise<T>): Promise<T | unknown> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      const connection = error instanceof RedisStoreError && (error.code === 'timeout' || error.code === 'failed');
      if (!connection) return error;
      if (tries >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('redisStore when the server goes away', () => {
  it('rejects every call with a RedisStoreError naming the operation while the server is down, and works again after a restart', async () => {
    // One bucket each, so that the call after the restart meets the bucket it stored in.
    const stores = connected.map(({ client }) => redisStore(client, { prefix: freshPrefix(), shards: 1, timeoutMs: 300 }));
    for (const store of stores) await store.append('c', 'u', [stored('a')], 0);

    await server.kill();
    for (const store of stores) {
      const failures = await Promise.allSettled([
        store.append('c', 'u', [stored('b')], 1),
        store.claim('c', 2, 1_000),
        store.claimIdle(Number.POSITIVE_INFINITY, 2, 1_000, 10),
        store.sent('c', 'a', 2),
      ]);
      for (const [index, failure] of failures.entries()) {
        expect(failure.status).toBe('rejected');
        const reason = (failure as PromiseRejectedResult).reason as RedisStoreError;
        expect(reason).toBeInstanceOf(RedisStoreError);
        expect(reason.operation).toBe(['append', 'claim', 'claimIdle', 'sent'][index]);
      }
    }

    // The restarted server is empty and has none of the scripts: EVALSHA answers NOSCRIPT,
    // and the store falls back to EVAL. Each store saw its bucket's epoch before: its first
    // call that reaches the server says what it lost, having done nothing.
    await server.restart();
    for (const store of stores) {
      const lost = await answered(async () => store.append('c', 'u', [stored('x')], 10));
      expect(lost).toBeInstanceOf(RedisStoreError);
      expect((lost as RedisStoreError).code).toBe('store_lost');
      expect((lost as RedisStoreError).operation).toBe('append');
      expect((lost as Error).message).toMatch(/Redis lost the store's data in bucket \{test:[\d:]+0\} \(its epoch changed: Redis restarted without persistence/);
      expect((lost as Error).message).toMatch(/had stored 1 interaction\(s\) there since 1970-01-01T00:00:00.000Z, of conversation\(s\) c;/);
      // Then it works on the new, empty store: the append that found the loss did nothing.
      expect(await store.claim('c', 10, 1_000)).toBeUndefined();
      await store.append('c', 'u', [stored('y')], 11);
      expect((await store.claim('c', 12, 1_000))?.interactions.map((i) => i.id)).toEqual(['y']);
    }
  });

  it('with maxmemory-policy noeviction, rejects a write when Redis is full instead of losing data silently', async () => {
    const { client } = connected[0]!;
    const admin = client as unknown as { configSet(name: string, value: string): Promise<unknown>; flushAll(): Promise<unknown> };
    const store = redisStore(client, { prefix: freshPrefix(), timeoutMs: 2_000 });
    await eventually(async () => store.append('before', 'u', [stored('a')], 0));
    await admin.configSet('maxmemory-policy', 'noeviction');
    await admin.configSet('maxmemory', '1');
    try {
      const failure = await Promise.resolve(store.append('c', 'u', [stored('b')], 1)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(RedisStoreError);
      expect((failure as RedisStoreError).code).toBe('out_of_memory');
      expect((failure as Error).message).toMatch(/OOM/);
      // What was stored before is still there.
      expect((await store.claim('before', 2, 1_000))?.interactions.map((i) => i.id)).toEqual(['a']);
    } finally {
      await admin.configSet('maxmemory', '0');
    }
  });
});
