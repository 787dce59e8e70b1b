import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bucket, Buckets } from '../../src/redis/buckets.js';
import { RedisStoreError, redisStore } from '../../src/redis/index.js';
import type { DeliveryError, RecordingError } from '../../src/recorder/errors.js';
import type { ConversationStore } from '../../src/types/store.js';
import { kinds, setup } from '../recorder/setup.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { CLIENTS, freshPrefix, type TestClient } from './redis-clients.js';
import { stored } from './store-contract.js';

// What Redis evicts under `allkeys-*` policies, evicted on purpose: a DEL of the chosen
// key, so that each race of sweeps against an eviction runs the same way every time. A
// node-redis 6 and an ioredis 6 client: two instances of one store.
let server: RedisServer;
const connected: TestClient[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  for (const { name, connect } of CLIENTS) if (name === 'node-redis 6' || name === 'ioredis 6') connected.push(await connect(server.url));
});

afterAll(async () => {
  for (const client of connected) await client.close();
  await server?.stop();
});

/** The keys that match `pattern` (a test's own prefix: few keys). */
const keys = (pattern: string) => (connected[0]!.client as unknown as { keys(pattern: string): Promise<string[]> }).keys(pattern);

/** Deletes `key` as an eviction would. */
const evict = (key: string) => (connected[0]!.client as unknown as { del(key: string): Promise<unknown> }).del(key);

const rejection = (work: unknown) => Promise.resolve(work).then(() => undefined, (error: unknown) => error as RedisStoreError);

/** The conversation ids (`c-…`) a loss report names. */
const named = (error: RedisStoreError | undefined) => [...(error?.message ?? '').matchAll(/\bc-\w+/g)].map((match) => match[0]);

/** Two instances of one store (node-redis and ioredis) on a fresh prefix, and its one bucket. */
function twoInstances(): { a: ConversationStore; b: ConversationStore; bucket: Bucket } {
  const prefix = freshPrefix();
  const [a, b] = connected.map(({ client }) => redisStore(client, { prefix, shards: 1 })) as [ConversationStore, ConversationStore];
  return { a, b, bucket: new Buckets(prefix, 1).all[0]! };
}

/** A sweep of `store` at `now`: every idle conversation, leases of 60 s, 10 a claim. */
const sweep = (store: ConversationStore, now: number) => store.claimIdle(Number.POSITIVE_INFINITY, now, 60_000, 10);

/** Claims and completes until a sweep finds nothing: each claim's conversation id and interaction ids. */
async function drain(store: ConversationStore, now: number) {
  const sent = new Map<string, string[]>();
  for (;;) {
    const claims = await sweep(store, now);
    if (claims.length === 0) return sent;
    for (const claim of claims) {
      sent.set(claim.conversationId, claim.interactions.map((one) => one.id));
      await store.complete(claim, now);
    }
  }
}

/** `holder` claims c-1 and dies holding it; then Redis evicts the claim's hash and each of `more`: the claim. */
async function evictedWhileHeld(holder: ConversationStore, bucket: Bucket, ...more: string[]) {
  const held = (await holder.claim('c-1', 10, 60_000))!;
  await evict(bucket.claim(held.token.split(' ')[0]!));
  for (const key of more) await evict(key);
  return held;
}

describe('redisStore when an eviction races sweeps', () => {
  it("two instances sweeping at once over an evicted index: each lost conversation told once, none told that is sent or whole, the whole ones sent", async () => {
    const { a, b, bucket } = twoInstances();
    // Both instances store turns of c-gone (its hash is evicted) and of c-whole (its hash stays).
    await a.append('c-gone', 'u', [stored('g1')], 1);
    await b.append('c-gone', 'u', [stored('g2')], 2);
    await a.append('c-whole', 'u', [stored('w1')], 3);
    await b.append('c-whole', 'u', [stored('w2')], 4);
    // a stores c-sent, which b sends.
    await a.append('c-sent', 'u', [stored('s1')], 5);
    await b.complete((await b.claim('c-sent', 6, 60_000))!, 6);
    await evict(bucket.open('c-gone'));
    await evict(bucket.idle);

    const [fromA, fromB] = await Promise.all([rejection(sweep(a, 10)), rejection(sweep(b, 10))]);
    // Each instance is told its bucket was lost; between them c-gone is named once.
    expect(fromA?.code).toBe('store_lost');
    expect(fromB?.code).toBe('store_lost');
    expect([...named(fromA), ...named(fromB)]).toEqual(['c-gone']);
    expect(`${fromA?.message} ${fromB?.message}`).toMatch(/of conversation\(s\) c-gone; those not yet sent are lost/);
    // c-whole lost its place in the index, not its data: it is sent, with every turn.
    const sent = await drain(a, 20);
    expect([...sent]).toEqual([['c-whole', ['w1', 'w2']]]);
    // Nothing more is told, by either.
    expect(await sweep(a, 30)).toEqual([]);
    expect(await sweep(b, 30)).toEqual([]);
  });

  it('a conversation told lost by a sweep, or sent, is not told again when the index is evicted after', async () => {
    const prefix = freshPrefix();
    const store = redisStore(connected[0]!.client, { prefix, shards: 1 });
    const bucket = new Buckets(prefix, 1).all[0]!;
    await store.append('c-gone', 'u', [stored('g1')], 1);
    await store.append('c-sent', 'u', [stored('s1')], 2);
    await evict(bucket.open('c-gone'));
    // The first sweep tells c-gone (and gives back c-sent), the next sends c-sent.
    const first = await rejection(store.claimIdle(Number.POSITIVE_INFINITY, 10, 60_000, 10));
    expect(named(first)).toEqual(['c-gone']);
    expect([...(await drain(store, 20))]).toEqual([['c-sent', ['s1']]]);

    await evict(bucket.idle);
    const second = await rejection(store.claimIdle(Number.POSITIVE_INFINITY, 30, 60_000, 10));
    expect(second?.code).toBe('store_lost');
    expect(second?.message).toMatch(/this instance lost nothing there/);
    expect(named(second)).toEqual([]);
  });

  it('a claim by id of a conversation whose hash was evicted after its index: told once, by the claim, not by the loss of the index', async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-gone', 'u', [stored('g1')], 1);
    await evict(bucket.idle);
    await evict(bucket.open('c-gone'));
    // b never used the bucket: its end of c-gone meets the lost hash and tells it.
    const byClaim = await rejection(b.claim('c-gone', 10, 60_000));
    expect(byClaim?.code).toBe('store_lost');
    expect(named(byClaim)).toEqual(['c-gone']);
    // a, which stored it, is told its bucket was lost, and that it lost nothing more.
    const bySweep = await rejection(sweep(a, 20));
    expect(bySweep?.message).toMatch(/this instance lost nothing there \(of the other conversation\(s\) it had stored there: 1 claimed, sent or told already\)/);
    expect(named(bySweep)).toEqual([]);
  });

  it('a turn stored after the index was evicted joins what was left of its conversation, which is then sent, not told lost', async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-1', 'u', [stored('t1')], 1);
    await evict(bucket.idle);
    // b never used the bucket: its append takes the bucket's new epoch and stores.
    await b.append('c-1', 'u', [stored('t2')], 2);
    const lost = await rejection(sweep(a, 10));
    expect(lost?.message).toMatch(/this instance lost nothing there \(of the other conversation\(s\) it had stored there: 1 still whole/);
    expect([...(await drain(b, 20))]).toEqual([['c-1', ['t1', 't2']]]);
  });

  it('a sweep and an append of one instance in flight together meet one evicted index: told once, and the append stores', async () => {
    const prefix = freshPrefix();
    const store = redisStore(connected[0]!.client, { prefix, shards: 1 });
    const bucket = new Buckets(prefix, 1).all[0]!;
    await store.append('c-1', 'u', [stored('t1')], 1);
    // Every script has run once on this server: none waits for its EVAL.
    expect(await store.claimIdle(0, 2, 60_000, 10)).toEqual([]);
    await evict(bucket.idle);

    // The sweep's read is on the wire before the append: Redis runs it first, and meets
    // no index; the append then meets the bucket's new epoch.
    const sweep = rejection(store.claimIdle(0, 3, 60_000, 10));
    await new Promise((resolve) => setImmediate(resolve));
    const append = rejection(store.append('c-2', 'u', [stored('t2')], 4));
    const [swept, appended] = await Promise.all([sweep, append]);
    // Told by the first of the two whose reply is handled (the sweep, as Redis ran them); the other carries on.
    expect([swept, appended].filter((error) => error !== undefined).map((error) => error.code)).toEqual(['store_lost']);
    // c-1's hash was still there: it is sent, and so is the turn appended unless it was the one to tell.
    expect(new Set((await drain(store, 20)).keys())).toEqual(new Set(appended === undefined ? ['c-1', 'c-2'] : ['c-1']));
  });
  it('a claim whose hash is evicted while held: completed, it is never told lost; given back, it is told once, by the one that gives it back', async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-sent', 'u', [stored('s1')], 1);
    await a.append('c-back', 'u', [stored('b1')], 2);
    const sent = (await a.claim('c-sent', 10, 60_000))!;
    const back = (await a.claim('c-back', 10, 60_000))!;
    await evict(bucket.claim(sent.token.split(' ')[0]!));
    await evict(bucket.claim(back.token.split(' ')[0]!));
    // The holder sent c-sent: its lease goes with the completion, so no sweep tells it lost.
    await a.complete(sent, 20);
    // c-back given back after its data was evicted: lost, told by the release.
    const givenBack = await rejection(a.release(back));
    expect(givenBack?.code).toBe('store_lost');
    expect(named(givenBack)).toEqual(['c-back']);
    // Once its lease has run out, no sweep tells either again.
    expect(await sweep(b, 10 + 120_000)).toEqual([]);
  });

  it('a conversation given back is open again: a loss of the index tells it if its hash is gone too, a claim by id takes it if not', async () => {
    const prefix = freshPrefix();
    const store = redisStore(connected[0]!.client, { prefix, shards: 1 });
    const other = redisStore(connected[1]!.client, { prefix, shards: 1 });
    const bucket = new Buckets(prefix, 1).all[0]!;
    await other.append('c-gone', 'u', [stored('g1')], 1);
    await other.append('c-kept', 'u', [stored('k1')], 2);
    // This instance stored neither: it claims and gives both back.
    for (const id of ['c-gone', 'c-kept']) await store.release((await store.claim(id, 10, 60_000))!);
    await evict(bucket.open('c-gone'));
    await evict(`${bucket.tag}leases`);
    await evict(bucket.idle);
    const lost = await rejection(store.claimIdle(Number.POSITIVE_INFINITY, 20, 60_000, 10));
    expect(named(lost)).toEqual(['c-gone']);
    expect(named(await rejection(other.claimIdle(Number.POSITIVE_INFINITY, 20, 60_000, 10)))).toEqual([]);
    expect((await other.claim('c-kept', 30, 60_000))?.interactions.map((one) => one.id)).toEqual(['k1']);
  });

  it("a turn appended after its conversation's hash was evicted (its index entry survived): told once, by that append, which stores nothing; the next turn starts the conversation anew", async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-1', 'u', [stored('t1')], 1);
    await a.append('c-1', 'u', [stored('t2')], 2);
    await evict(bucket.open('c-1'));
    // b's turn finds the conversation indexed but its turns gone: the append tells it (its
    // turn then goes to onError with its payload), rather than start the hash anew over them.
    const told = await rejection(b.append('c-1', 'u', [stored('t3')], 3));
    expect(told?.code).toBe('store_lost');
    expect(named(told)).toEqual(['c-1']);
    expect(told?.message).toMatch(/turns stored of it before are lost; this turn was not stored/);
    // a stored t1 and t2: its own append that meets the same loss names what it had stored.
    await a.append('c-2', 'u', [stored('o1')], 3);
    await evict(bucket.open('c-2'));
    expect((await rejection(a.append('c-2', 'u', [stored('o2')], 4)))?.message).toMatch(/this instance had stored 1 interaction\(s\) of it since/);
    // Told once: the next turn starts the conversation anew, no sweep and no loss of the index names it again.
    await b.append('c-1', 'u', [stored('t4')], 5);
    expect([...(await drain(a, 20))]).toEqual([['c-1', ['t4']]]);
    await evict(bucket.idle);
    expect(named(await rejection(sweep(a, 30)))).toEqual([]);
    expect(named(await rejection(sweep(b, 30)))).toEqual([]);
  });

  it("a turn appended after both its conversation's hash and its kept ids were evicted: the index entry alone tells it", async () => {
    const prefix = freshPrefix();
    const store = redisStore(connected[0]!.client, { prefix, shards: 1 });
    const bucket = new Buckets(prefix, 1).all[0]!;
    await store.append('c-1', 'u', [stored('t1')], 1);
    await evict(bucket.open('c-1'));
    await evict(bucket.kept('c-1'));
    expect(named(await rejection(store.append('c-1', 'u', [stored('t2')], 2)))).toEqual(['c-1']);
    await store.append('c-1', 'u', [stored('t3')], 3);
    expect([...(await drain(store, 20))]).toEqual([['c-1', ['t3']]]);
  });

  it("a claim whose holder dies after Redis evicted its hash and the bucket's leases: told by a sweep once its lease ran out", async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-1', 'u', [stored('t1')], 1);
    await a.append('c-2', 'u', [stored('u1')], 2);
    // b claims c-1, and dies before it completes. Evicted: where the leases are kept (a
    // key of their own in earlier layouts; now the index, which survives here).
    await evictedWhileHeld(b, bucket, `${bucket.tag}leases`);
    expect([...(await drain(a, 20))]).toEqual([['c-2', ['u1']]]);
    const told = await rejection(sweep(a, 10 + 60_001));
    expect(told?.code).toBe('store_lost');
    expect(named(told)).toEqual(['c-1']);
    expect(await sweep(b, 10 + 120_000)).toEqual([]);
  });

  it("a claim whose holder dies after Redis evicted its hash and the index (with the leases): the bucket's loss names it, and a sweep tells it lost once its lease ran out", async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-1', 'u', [stored('t1')], 1);
    await evictedWhileHeld(b, bucket, `${bucket.tag}leases`, bucket.idle);
    // a stored c-1: told its bucket was lost, and that c-1 was claimed and not sent yet.
    const loss = await rejection(sweep(a, 20));
    expect(loss?.message).toMatch(/1 claimed and not sent yet \(c-1: sent by its holder, or told lost by a sweep once its lease runs out\)/);
    // b, the holder, stored nothing there: told of the bucket's loss, naming nothing.
    expect(named(await rejection(sweep(b, 30)))).toEqual([]);
    // Its holder died: the sweep that meets its expired lease tells it, once.
    const told = await rejection(sweep(b, 10 + 60_001));
    expect(told?.code).toBe('store_lost');
    expect(named(told)).toEqual(['c-1']);
    expect(await sweep(a, 10 + 120_000)).toEqual([]);
  });

  it('a claim given back after Redis evicted its hash and the index (with its lease): told once, by the one that gives it back, by its mark', async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-1', 'u', [stored('t1')], 1);
    const held = await evictedWhileHeld(b, bucket, `${bucket.tag}leases`, bucket.idle);
    // Its lease went with the index; the claim mark in its kept hash says it was neither sent nor told.
    expect(named(await rejection(b.release(held)))).toEqual(['c-1']);
    // a, which stored it, is told its bucket was lost, naming nothing; no sweep tells c-1 again.
    expect(named(await rejection(sweep(a, 20)))).toEqual([]);
    expect(await sweep(a, 10 + 120_000)).toEqual([]);
  });

  it('a claim whose index (with the leases) was evicted while its hash stayed: sent by a sweep if its holder dies, never told lost if it completes', async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-dead', 'u', [stored('d1')], 1);
    await a.append('c-live', 'u', [stored('l1')], 2);
    const dead = (await b.claim('c-dead', 10, 60_000))!;
    const live = (await b.claim('c-live', 10, 60_000))!;
    expect(dead.interactions).toHaveLength(1);
    await evict(`${bucket.tag}leases`);
    await evict(bucket.idle);
    expect((await rejection(sweep(a, 20)))?.code).toBe('store_lost');
    // c-live's holder sends it; c-dead's holder died: a sweep takes it once its lease ran out, and sends it whole.
    await b.complete(live, 30);
    expect([...(await drain(a, 10 + 60_001))]).toEqual([['c-dead', ['d1']]]);
    // b, the holder, is told of the bucket's loss, naming nothing; then nothing is left.
    expect(named(await rejection(sweep(b, 10 + 200_000)))).toEqual([]);
    expect(await sweep(b, 10 + 200_000)).toEqual([]);
  });

  it("a turn appended after Redis evicted its conversation's hash, kept ids and index starts another generation: the instance that stored the earlier turns names them when told of the bucket's loss", async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-1', 'u', [stored('t1')], 1);
    await evict(bucket.open('c-1'));
    await evict(bucket.kept('c-1'));
    await evict(bucket.idle);
    // b never used the bucket and finds nothing of c-1: nothing to tell, it starts c-1 anew.
    await b.append('c-1', 'u', [stored('t2')], 2);
    // a stored t1, which Redis lost: c-1 is open, but not the generation a stored into.
    const loss = await rejection(sweep(a, 10));
    expect(named(loss)).toEqual(['c-1']);
    expect(loss?.message).toMatch(/of conversation\(s\) c-1; those not yet sent are lost/);
    expect([...(await drain(b, 20))]).toEqual([['c-1', ['t2']]]);
  });

  it("a claim whose holder dies after Redis evicted its hash, its kept hash and the index, while the next generation is open: named by the instance that stored turns of both", async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-1', 'u', [stored('t1')], 1);
    // b claims it, and dies before it completes; a's next turn starts the next generation.
    const held = (await b.claim('c-1', 2, 60_000))!;
    await a.append('c-1', 'u', [stored('t2')], 3);
    await evict(bucket.claim(held.token.split(' ')[0]!));
    await evict(bucket.kept('c-1'));
    await evict(bucket.idle);
    // Nothing in Redis says what became of t1's generation: a, which stored it, names c-1.
    const loss = await rejection(sweep(a, 10));
    expect(named(loss)).toEqual(['c-1']);
    // The open generation is indexed again and sent.
    expect([...(await drain(a, 20))]).toEqual([['c-1', ['t2']]]);
  });

  it('a claim whose holder dies after Redis evicted its hash, its kept hash and the index: still named by an instance that stored it, though it sent the next generation since', async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-1', 'u', [stored('t1')], 1);
    const held = (await b.claim('c-1', 2, 60_000))!;
    // a records the next turn, and sends that generation itself.
    await a.append('c-1', 'u', [stored('t2')], 3);
    await a.complete((await a.claim('c-1', 4, 60_000))!, 4);
    await evict(bucket.claim(held.token.split(' ')[0]!));
    await evict(bucket.kept('c-1'));
    await evict(bucket.idle);
    expect(named(await rejection(sweep(a, 10)))).toEqual(['c-1']);
  });

  it('a conversation sent, or told lost, whose next generation is open when the index is evicted: not named again by the instances that stored the one before', async () => {
    const { a, b, bucket } = twoInstances();
    await a.append('c-sent', 'u', [stored('s1')], 1);
    await a.append('c-told', 'u', [stored('t1')], 1);
    await b.complete((await b.claim('c-sent', 2, 60_000))!, 2);
    await evict(bucket.open('c-told'));
    expect(named(await rejection(b.claim('c-told', 3, 60_000)))).toEqual(['c-told']);
    // Both go on in b: their next generations are open when the index is evicted.
    await b.append('c-sent', 'u', [stored('s2')], 4);
    await b.append('c-told', 'u', [stored('t2')], 4);
    await evict(bucket.idle);
    const loss = await rejection(sweep(a, 10));
    expect(loss?.message).toMatch(/this instance lost nothing there \(of the other conversation\(s\) it had stored there: 2 claimed, sent or told already\)/);
    expect(named(loss)).toEqual([]);
    // b is told too: what it stored there is whole.
    expect((await rejection(sweep(b, 10)))?.message).toMatch(/2 still whole/);
    expect(new Map([...(await drain(b, 20))].sort())).toEqual(new Map([['c-sent', ['s2']], ['c-told', ['t2']]]));
  });

  it("through the recorder, a turn recorded after its conversation's hash was evicted reaches onError as a store_lost RecordingError naming the conversation, beside the turn's payload", async () => {
    const prefix = freshPrefix();
    const { errors, recorder } = setup({ store: redisStore(connected[0]!.client, { prefix, shards: 1 }), settleMs: 0, sweepIntervalMs: 0 });
    const conversation = recorder.startConversation({ end_user: 'u', conversation_id: 'chat-1' });
    conversation.interaction({ input: 'q1' }).end({ output: 'a1' });
    await recorder.flush();
    const open = await keys(`{${prefix}0}o:*`);
    expect(open).toHaveLength(1);
    await evict(open[0]!);
    conversation.interaction({ input: 'q2' }).end({ output: 'a2' });
    await recorder.flush();

    expect(kinds(errors)).toEqual(['store_lost', 'DeliveryError']);
    const [lost, undelivered] = errors as [RecordingError, DeliveryError];
    expect(lost.conversationId).toBe('chat-1');
    expect(lost.message).toMatch(/the turns stored of it before are lost/);
    expect(JSON.parse(undelivered.payload)).toMatchObject({ conversation: { end_user: 'u', interactions: [{ input: 'q2', output: 'a2' }] } });
    await recorder.shutdown();
  });
});

describe('redisStore when the call that meets a loss gets no reply in time', () => {
  it('an append that met an evicted conversation, timed out and ran once Redis woke: the next sweep tells the loss, once; one that met none tells nothing', async () => {
    for (const { name, client } of connected) {
      const prefix = freshPrefix();
      const store = redisStore(client, { prefix, shards: 1, timeoutMs: 300 });
      const bucket = new Buckets(prefix, 1).all[0]!;
      await store.append('c-gone', 'u', [stored('g1')], 1);
      await evict(bucket.open('c-gone'));
      // Both appends run only after their time-out: their replies reach no one.
      server.pause();
      const [lostAppend, plainAppend] = await Promise.all([
        rejection(store.append('c-gone', 'u', [stored('g2')], 2)),
        rejection(store.append('c-new', 'u', [stored('n1')], 2)),
      ]);
      server.resume();
      expect([lostAppend?.code, plainAppend?.code], name).toEqual(['timeout', 'timeout']);
      // The first told the loss to Redis alone (it removed the entry and the mark): the sweep asks and tells it.
      const told = await rejection(sweep(store, 10));
      expect(told?.code, name).toBe('store_lost');
      expect(named(told), name).toEqual(['c-gone']);
      // Once; and the turn stored late is sent.
      expect([...(await drain(store, 20))], name).toEqual([['c-new', ['n1']]]);
      expect(await sweep(store, 30), name).toEqual([]);
    }
  });

  it('a claim by id that met an evicted conversation and timed out: the next sweep tells the loss, once', async () => {
    const prefix = freshPrefix();
    const store = redisStore(connected[1]!.client, { prefix, shards: 1, timeoutMs: 300 });
    const bucket = new Buckets(prefix, 1).all[0]!;
    await store.append('c-gone', 'u', [stored('g1')], 1);
    // The claim script is loaded: what Redis runs once it wakes is the claim, not a NOSCRIPT first.
    expect(await store.claim('c-none', 1, 60_000)).toBeUndefined();
    await evict(bucket.open('c-gone'));
    server.pause();
    const claimed = rejection(store.claim('c-gone', 5, 60_000));
    await new Promise((resolve) => setTimeout(resolve, 400));
    server.resume();
    expect((await claimed)?.code).toBe('timeout');
    expect(named(await rejection(sweep(store, 10)))).toEqual(['c-gone']);
    expect(await sweep(store, 20)).toEqual([]);
  });
});
