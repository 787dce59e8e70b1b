import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStoreError, redisStore } from '../../src/redis/index.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { startUpstashFront, type UpstashFront } from '../helpers/upstash-front.js';
import { freshPrefix } from './redis-clients.js';
import { describeStoreContract, stored } from './store-contract.js';

// `@upstash/redis` as edge runtimes use it, over HTTP to a front that speaks Upstash's REST
// protocol in front of a real redis-server: its defaults (auto-pipelining, JSON parsing
// of replies, base64 responses), and one command per request.
const TOKEN = 'upstash-test-token';
let server: RedisServer;
let front: UpstashFront;

beforeAll(async () => {
  server = await startRedisServer({ own: true });
  front = await startUpstashFront(server.url, TOKEN);
});

afterAll(async () => {
  await front?.close();
  await server?.stop();
});

const pipelined = () => new Redis({ url: front.url, token: TOKEN, enableTelemetry: false });
const oneByOne = () => new Redis({ url: front.url, token: TOKEN, enableTelemetry: false, enableAutoPipelining: false });

describeStoreContract({ name: 'redisStore over @upstash/redis (auto-pipelining)', make: async () => redisStore(pipelined(), { prefix: freshPrefix() }) });
describeStoreContract({ name: 'redisStore over @upstash/redis (a request per command)', make: async () => redisStore(oneByOne(), { prefix: freshPrefix() }) });

describe('redisStore over @upstash/redis', () => {
  it('went through every path of the protocol it uses (the front also answers transactions)', async () => {
    expect(front.requests.get('/pipeline')).toBeGreaterThan(0);
    expect(front.requests.get('/')).toBeGreaterThan(0);
    const key = `${freshPrefix()}multi`;
    expect(await pipelined().multi().set(key, 'one').get(key).exec()).toEqual(['OK', 'one']);
    expect(front.requests.get('/multi-exec')).toBe(1);
  });

  it('gives back ids and text that look like JSON as they were: the client parses no reply of the store', async () => {
    for (const client of [pipelined(), oneByOne()]) {
      const store = redisStore(client, { prefix: freshPrefix() });
      const tricky = ['123', 'null', 'true', '{"a":1}', '[1, 2]', '"quoted"', '1e3', '-0'];
      for (const id of tricky) await store.append(id, id, [{ ...stored(id, id), order: 1 }], 10);
      for (const id of tricky) {
        const claim = await store.claim(id, 20, 60_000);
        expect(claim?.conversationId).toBe(id);
        expect(claim?.endUser).toBe(id);
        expect(claim?.interactions.map((one) => [one.id, one.interaction.input, one.order])).toEqual([[id, id, 1]]);
        expect(claim?.lastActivityAt).toBe(10);
        await store.complete(claim!, 1_000);
        expect(await store.sent(id, id, 30)).toMatchObject({ endUser: id, input: id });
      }
    }
  });

  it('runs its scripts again after the server lost them (NOSCRIPT, wrapped by the client as `Command failed: NOSCRIPT`)', async () => {
    const store = redisStore(pipelined(), { prefix: freshPrefix() });
    await store.append('c', 'u', [stored('a')], 0);
    const admin = pipelined();
    await admin.scriptFlush();
    // At once, so that the client pipelines them: its errors are then wrapped.
    await Promise.all([store.append('c', 'u', [stored('b')], 1), store.attach('c', 'a', { kind: 'feedback', action: { slug: 'thumbs_up' } }, 2)]);
    const claim = await store.claim('c', 3, 60_000);
    expect(claim?.interactions.map((one) => one.id)).toEqual(['a', 'b']);
    expect(claim?.interactions[0]?.interaction.feedback_actions).toEqual([{ slug: 'thumbs_up' }]);
  });

  it('reports a loss of the store (FLUSHALL) with code store_lost', async () => {
    const store = redisStore(oneByOne(), { prefix: freshPrefix(), shards: 1 });
    await store.append('c', 'u', [stored('a')], 0);
    await pipelined().flushall();
    const lost = await Promise.resolve(store.append('c', 'u', [stored('b')], 1)).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(RedisStoreError);
    expect((lost as RedisStoreError).code).toBe('store_lost');
    expect((lost as Error).message).toMatch(/had stored 1 interaction\(s\) there .* of conversation\(s\) c;/);
  });

  it('rejects with a RedisStoreError that names neither the token nor the interactions when the token is wrong', async () => {
    const store = redisStore(new Redis({ url: front.url, token: 'wrong', enableTelemetry: false, retry: false }), { prefix: freshPrefix() });
    const failure = await Promise.resolve(store.append('c', 'u', [stored('a', 'private text')], 0)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RedisStoreError);
    expect((failure as RedisStoreError).code).toBe('failed');
    expect((failure as Error).message).toMatch(/Unauthorized/);
    expect((failure as Error).message).not.toMatch(/wrong|private text/);
  });
});
