import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient, type NebulyError } from '../../src/index.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { redisStore } from '../../src/redis/index.js';
import type { ConversationStore } from '../../src/types/store.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';

// Two instances of a backend on one real Redis, where the next request of a chat reaches
// the other instance at once, and nobody awaits flush() before answering: the end (or
// the feedback) on one instance waits settleMs for the turn the other is still storing.

const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
const FEEDBACK = '/event-ingestion/api/v1/events/feedback';
let redis: RedisServer;
let reference: ReferenceServer;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  reference = await createReferenceServer({ apiKeys: { 'settle-key': 'settle' } });
});
afterAll(async () => {
  for (const close of closing.splice(0)) await close();
  await reference?.close();
  await redis?.stop();
});

/**
 * One instance of the backend, its own connection to the one Redis; `slowWritesMs`: its
 * store writes take that long to land (a busy connection, a far Redis).
 */
async function instance(errors: NebulyError[], prefix: string, { slowWritesMs = 0, settleMs }: { slowWritesMs?: number; settleMs?: number } = {}) {
  const client = createClient({ url: redis.url });
  await client.connect();
  const store = redisStore(client, { prefix });
  const append: ConversationStore['append'] = (...args) =>
    new Promise((resolve, reject) => setTimeout(() => Promise.resolve(store.append(...args)).then(resolve, reject), slowWritesMs));
  const nebuly = new NebulyClient({
    apiKey: 'settle-key',
    baseUrl: reference.url,
    onError: (error) => errors.push(error),
    recorder: { store: slowWritesMs > 0 ? Object.assign(Object.create(store) as ConversationStore, { append }) : store, sweepIntervalMs: 0, settleMs },
  });
  closing.push(async () => nebuly.shutdown().then(() => client.close()));
  return nebuly;
}

describe('a shared store, the next request at another instance at once', { timeout: 60_000 }, () => {
  it('keeps each conversation whole, and feedback by id finds its interaction, without flush()', async () => {
    const errors: NebulyError[] = [];
    const [a, b] = [await instance(errors, 'settle-1:', { slowWritesMs: 200 }), await instance(errors, 'settle-1:')];
    const chats = Array.from({ length: 20 }, (_, index) => `chat-${index}`);
    const ended: Promise<unknown>[] = [];
    for (const chat of chats) {
      // A turn served by A, then at once the close on B: A's write may still be on the wire.
      const turn = a.conversation({ conversation_id: chat, end_user: 'u' }).interaction({ input: `${chat} first` });
      turn.end({ output: 'one' });
      const last = b.conversation({ conversation_id: chat, end_user: 'u' }).interaction({ input: `${chat} second` });
      last.end({ output: 'two' });
      ended.push(b.feedback({ conversation_id: chat, interaction_id: turn.id, slug: 'thumbs_up' }));
      ended.push(b.conversation({ conversation_id: chat, end_user: 'u' }).end());
    }
    await Promise.all(ended);
    await Promise.all([a.flush(), b.flush()]);

    const bodies = reference.requests.all({ path: CONVERSATIONS }).map(
      (request) => JSON.parse(request.body) as { conversation: { interactions: { input: string; feedback_actions?: unknown[] }[] } },
    );
    // One conversation per chat, with both turns, in order; none split.
    expect(bodies).toHaveLength(chats.length);
    const byChat = new Map(bodies.map((body) => [body.conversation.interactions[0]?.input.split(' ')[0], body.conversation.interactions]));
    for (const chat of chats) {
      const interactions = byChat.get(chat) ?? [];
      expect(interactions.map((interaction) => interaction.input)).toEqual([`${chat} first`, `${chat} second`]);
    }
    // Each feedback reached its interaction: attached in the store, or sent once it was sent.
    const attached = bodies.filter((body) => (body.conversation.interactions[0]?.feedback_actions?.length ?? 0) > 0).length;
    expect(attached + reference.requests.all({ path: FEEDBACK }).length).toBe(chats.length);
    expect(errors).toEqual([]);
  });

  it('settleMs: 0 takes the conversation at once: a turn still being stored elsewhere starts another (flush() before answering, then)', async () => {
    const errors: NebulyError[] = [];
    const [a, b] = [await instance(errors, 'settle-2:', { slowWritesMs: 200, settleMs: 0 }), await instance(errors, 'settle-2:', { settleMs: 0 })];
    reference.requests.clear();
    a.conversation({ conversation_id: 'chat', end_user: 'u' }).interaction({ input: 'first' }).end({ output: 'one' });
    const closing = b.conversation({ conversation_id: 'chat', end_user: 'u' });
    closing.interaction({ input: 'second' }).end({ output: 'two' });
    await closing.end();
    await a.flush();
    await b.conversation({ conversation_id: 'chat', end_user: 'u' }).end();
    const sent = reference.requests.all({ path: CONVERSATIONS }).map((request) => request.body);
    expect(sent.map((body) => (JSON.parse(body) as { conversation: { interactions: { input: string }[] } }).conversation.interactions.map((i) => i.input))).toEqual([
      ['second'],
      ['first'],
    ]);
    expect(() => new NebulyClient({ apiKey: 'k', recorder: { settleMs: -1 } })).toThrow(/settleMs/);
  });
});
