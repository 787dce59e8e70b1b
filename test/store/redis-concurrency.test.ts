import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationClaim, ConversationStore } from '../../src/types/store.js';
import { redisStore } from '../../src/redis/index.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { CLIENTS, freshPrefix, type TestClient } from './redis-clients.js';
import { stored } from './store-contract.js';

let server: RedisServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  // Two connections of each library and major: eight "instances".
  for (const { connect } of [...CLIENTS, ...CLIENTS]) clients.push(await connect(server.url));
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await server?.stop();
});

const CONVERSATIONS = 20;
const TURNS = 25;

describe('redisStore under concurrent instances', () => {
  it('loses no interaction and claims each once, with appends and claims racing from eight clients', async () => {
    const prefix = freshPrefix();
    const stores = clients.map(({ client }) => redisStore(client, { prefix }));
    const claims: ConversationClaim[] = [];
    let clock = 0;
    const now = () => (clock += 1);

    // Every turn of every conversation, appended by a store chosen round robin, all at once.
    const appends: Promise<void>[] = [];
    for (let turn = 0; turn < TURNS; turn += 1) {
      for (let conversation = 0; conversation < CONVERSATIONS; conversation += 1) {
        const store = stores[(turn + conversation) % stores.length]!;
        appends.push(Promise.resolve(store.append(`c${conversation}`, `user-${conversation}`, [stored(`c${conversation}-t${turn}`)], now())));
      }
    }
    // Meanwhile every store claims by id and sweeps, again and again, completing what it takes.
    const take = async (store: ConversationStore, claim: ConversationClaim | undefined) => {
      if (claim === undefined) return;
      claims.push(claim);
      await store.complete(claim, 1e15);
    };
    const claimers = stores.map(async (store, index) => {
      for (let round = 0; round < 15; round += 1) {
        await take(store, await store.claim(`c${(index + round) % CONVERSATIONS}`, now(), 60_000));
        for (const claim of await store.claimIdle(Number.POSITIVE_INFINITY, now(), 60_000, 3)) await take(store, claim);
      }
    });
    await Promise.all([...appends, ...claimers]);
    // What is still open after the race, swept by one.
    for (const claim of await stores[0]!.claimIdle(Number.POSITIVE_INFINITY, now(), 60_000, 1_000)) await take(stores[0]!, claim);

    const seen = claims.flatMap((claim) => claim.interactions.map((stored) => stored.id));
    expect(seen.length).toBe(CONVERSATIONS * TURNS);
    expect(new Set(seen).size).toBe(CONVERSATIONS * TURNS);
    expect(new Set(claims.map((claim) => claim.generation)).size).toBe(claims.length);
    for (const claim of claims) {
      expect(claim.endUser).toBe(`user-${claim.conversationId.slice(1)}`);
      expect(claim.interactions.every((stored) => stored.id.startsWith(`${claim.conversationId}-`))).toBe(true);
      // No order across concurrent appends to check: the recorder orders turns by time_start.
    }
    // The race really raced: conversations were claimed while turns were still arriving.
    expect(claims.length).toBeGreaterThan(CONVERSATIONS);
  });

  it('gives an expired lease to one sweeper only, when many sweep at once', async () => {
    const prefix = freshPrefix();
    const stores = clients.map(({ client }) => redisStore(client, { prefix }));
    for (let index = 0; index < 30; index += 1) await stores[0]!.append(`c${index}`, 'u', [stored(`i${index}`)], 0);
    const first = await stores[0]!.claimIdle(Number.POSITIVE_INFINITY, 1, 100, 30);
    expect(first).toHaveLength(30);
    // Every lease expired (the sender died): eight sweepers race for them.
    const again = (await Promise.all(stores.map((store) => store.claimIdle(Number.NEGATIVE_INFINITY, 500, 60_000, 30)))).flat();
    expect(again.map((claim) => claim.generation).sort()).toEqual(first.map((claim) => claim.generation).sort());
  });
});
