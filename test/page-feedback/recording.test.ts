/**
 * Feedback from the page is recorded as `nebuly.feedback()` records: attached to the
 * interaction while its conversation is open, sent to the feedback endpoint once it was
 * sent; with either delivery mode; with the memory store and a real Redis; the token
 * minted by one instance and the feedback received by another.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationStore, NebulyClient } from '../../src/index.js';
import { redisStore } from '../../src/redis/index.js';
import { sharedStore } from '../recorder/shared-store.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { FEEDBACK, INTERACTIONS, instances, post } from './setup.js';

let server: RedisServer;
let redis: Redis;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url, { lazyConnect: true });
  await redis.connect();
}, 60_000);

afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

const clients: NebulyClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown({ timeoutMs: 1_000 })));
});

const STORES: [string, () => ConversationStore][] = [
  ['a shared memory store', () => sharedStore()],
  ['a real Redis', () => redisStore(redis, { prefix: `page-feedback-${process.pid}-${(prefixes += 1)}` })],
];

describe.each(STORES)('with %s, minted on one instance, received by another', (_, makeStore) => {
  function two() {
    const made = instances(2, { store: makeStore() });
    clients.push(...made.clients);
    return { ...made, a: made.clients[0]!, b: made.clients[1]! };
  }

  it('attached to the stored interaction while its conversation is open', async () => {
    const { a, b, conversationActions, bodies, errors } = two();
    const turn = a.conversation({ conversation_id: 'chat-1', end_user: 'u' }).interaction({ input: 'q' });
    turn.end({ output: 'answer' });
    const token = await turn.feedbackToken();
    await a.flush();

    expect((await b.handleFeedback(post({ token, slug: 'thumbs_up' }))).status).toBe(204);
    expect((await b.handleFeedback(post({ token, slug: 'rating', value: 4 }))).status).toBe(204);
    await b.conversation({ conversation_id: 'chat-1', end_user: 'u' }).end();
    expect(conversationActions()).toEqual([[{ slug: 'thumbs_up' }, { slug: 'rating', value: 4 }]]);
    expect(bodies(FEEDBACK)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('sent to the feedback endpoint once the conversation was sent', async () => {
    const { a, b, bodies, errors } = two();
    const conversation = a.conversation({ conversation_id: 'chat-2', end_user: 'user-9' });
    const turn = conversation.interaction({ input: 'Where is my order?' });
    turn.end({ output: 'It left on Monday.' });
    await conversation.end();
    const token = await a.feedbackToken({ conversation_id: 'chat-2', interaction_id: turn.id });

    expect((await b.handleFeedback(post({ token, slug: 'comment', text: 'thanks' }))).status).toBe(204);
    expect(bodies(FEEDBACK)).toMatchObject([
      { action: { slug: 'comment', text: 'thanks' }, metadata: { input: 'Where is my order?', output: 'It left on Monday.', end_user: 'user-9' } },
    ]);
    expect(errors).toEqual([]);
  });
});

describe("with delivery: 'interaction'", () => {
  it('feedback before the turn ends is sent with the interaction; after, it fares exactly as nebuly.feedback() does', async () => {
    const made = instances(2, { store: sharedStore(), recorder: { delivery: 'interaction' } });
    clients.push(...made.clients);
    const [a, b] = made.clients as [NebulyClient, NebulyClient];
    const turn = a.conversation({ conversation_id: 'chat-3', end_user: 'u' }).interaction({ input: 'q' });
    const token = await turn.feedbackToken();
    expect((await a.handleFeedback(post({ token, slug: 'thumbs_up' }))).status).toBe(204);
    turn.end({ output: 'answer' });
    await a.flush();
    expect(made.bodies(INTERACTIONS)).toMatchObject([{ interaction: { conversation_id: 'chat-3', input: 'q' }, user_feedback: [{ slug: 'thumbs_up' }] }]);

    // Once sent, both paths give the same outcome, whatever the pipeline does with it.
    expect((await b.handleFeedback(post({ token, slug: 'thumbs_down' }))).status).toBe(204);
    const byHandler = made.errors.splice(0).map((error) => error.message);
    await b.feedback({ conversation_id: 'chat-3', interaction_id: turn.id, slug: 'thumbs_down' });
    expect(made.errors.map((error) => error.message)).toEqual(byHandler);
  });
});

describe('in one instance, the turn still open', () => {
  it('attached to the turn, as nebuly.feedback() does', async () => {
    const made = instances(1);
    clients.push(...made.clients);
    const nebuly = made.clients[0]!;
    const conversation = nebuly.conversation({ conversation_id: 'chat-4', end_user: 'u' });
    const turn = conversation.interaction({ input: 'q' });
    const token = await turn.feedbackToken();
    expect((await nebuly.handleFeedback(post({ token, slug: 'copy_input', text: 'q' }))).status).toBe(204);
    turn.end({ output: 'a' });
    await conversation.end();
    expect(made.conversationActions()).toEqual([[{ slug: 'copy_input', text: 'q' }]]);
  });
});
