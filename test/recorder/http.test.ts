import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/options.js';
import { AbortError, InternalServerError, type NebulyError } from '../../src/core/errors.js';
import { DeliveryError, RecordingError } from '../../src/recorder/errors.js';
import { ENDPOINTS } from '../../src/core/endpoints.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { manualClock } from './setup.js';

// A canary: it must never appear in an error the recorder reports.
const API_KEY = 'sk-canary-6f1d2c9a';
const PROJECT = 'project-recorder';

let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { [API_KEY]: PROJECT } });
});
afterEach(() => {
  server.store.clear();
  server.faults.clear();
  server.requests.clear();
});
afterAll(async () => {
  await server.close();
});

function client(overrides: Partial<ClientOptions> = {}) {
  const errors: NebulyError[] = [];
  const nebuly = new NebulyClient({
    apiKey: API_KEY,
    baseUrl: server.url,
    maxRetries: 2,
    retryDelayMs: 1,
    timeoutMs: 2000,
    onError: (error) => errors.push(error),
    ...overrides,
  });
  return { nebuly, errors };
}

const CONVERSATION_PATH = ENDPOINTS.sendConversation.path;
const posts = () => server.requests.all().filter((request) => request.path === CONVERSATION_PATH);

describe('the recorder against the reference server', () => {
  it('puts exactly one POST on the wire, byte for byte', async () => {
    const clock = manualClock(Date.parse('2026-05-01T10:00:00.000Z'));
    const { nebuly, errors } = client({ recorder: { now: clock.now } });
    const conversation = nebuly.startConversation({ end_user: 'hash-1', tags: { channel: 'web' } });
    const turn = conversation.interaction({ input: 'Ciao è€😀', tags: { lang: 'it' } });
    turn.llm({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Ciao è€😀' },
      ],
      output: 'Ciao!',
      input_tokens: 12,
      output_tokens: 2,
    });
    clock.advance(850);
    turn.end({ output: 'Ciao!' });
    turn.feedback({ slug: 'thumbs_up' });

    await expect(conversation.end()).resolves.toEqual({ status: 'delivered', conversationId: conversation.id });
    expect(errors).toEqual([]);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.status).toBe(202);
    expect(posts()[0]?.body).toBe(
      '{"conversation":{"end_user":"hash-1","interactions":[{"input":"Ciao è€😀","output":"Ciao!",' +
        '"time_start":"2026-05-01T10:00:00.000Z","time_end":"2026-05-01T10:00:00.850Z",' +
        '"tags":{"channel":"web","lang":"it"},"feedback_actions":[{"slug":"thumbs_up"}],' +
        '"trace":[{"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},' +
        '{"role":"user","content":"Ciao è€😀"}],"output":"Ciao!","input_tokens":12,"output_tokens":2}]}]}}',
    );
    expect(server.store.listInteractions(PROJECT)).toMatchObject([{ end_user: 'hash-1', input: 'Ciao è€😀' }]);
  });

  it('retries by the client policy and delivers', async () => {
    server.faults.add({ status: 503, times: 2, path: CONVERSATION_PATH });
    const { nebuly, errors } = client();
    const conversation = nebuly.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    await expect(conversation.end()).resolves.toMatchObject({ status: 'delivered' });
    expect(posts().map((request) => request.status)).toEqual([503, 503, 202]);
    expect(errors).toEqual([]);
    expect(server.store.listInteractions(PROJECT)).toHaveLength(1);
  });

  it('reports a conversation that still fails after the retries, with its payload and without the key', async () => {
    server.faults.add({ status: 503, times: 3, path: CONVERSATION_PATH });
    const { nebuly, errors } = client();
    const conversation = nebuly.startConversation({ end_user: 'u', conversation_id: 'c-lost' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    const outcome = await conversation.end();

    expect(outcome.status).toBe('failed');
    expect(posts()).toHaveLength(3);
    expect(errors).toHaveLength(1);
    const error = errors[0] as DeliveryError;
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error.conversationId).toBe('c-lost');
    expect(error.cause).toBeInstanceOf(InternalServerError);
    const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack, cause: String(error.cause) });
    expect(everything).not.toContain(API_KEY);

    // The payload is what conversations.send takes: the caller can send it again.
    await nebuly.conversations.send(JSON.parse(error.payload));
    expect(posts().at(-1)?.body).toBe(error.payload);
    expect(server.store.listInteractions(PROJECT)).toMatchObject([{ input: 'q', output: 'a' }]);
  });

  it('keeps each conversation whole and in order when many are recorded at once', async () => {
    const { nebuly, errors } = client({ recorder: { maxConcurrentSends: 4 } });
    const users = Array.from({ length: 30 }, (_, i) => `user-${i}`);
    const conversations = users.map((end_user) => nebuly.startConversation({ end_user }));
    // Interleave: each round records one turn in every conversation, awaiting between.
    for (let round = 0; round < 4; round += 1) {
      for (const [i, conversation] of conversations.entries()) {
        const turn = conversation.interaction({ input: `${users[i]} asks ${round}` });
        await Promise.resolve();
        turn.llm({ model: 'm', messages: [{ role: 'user', content: `${round}` }], output: `answer ${round}` });
        turn.end({ output: `answer ${round}` });
      }
      // A few end early, while the others keep recording.
      if (round === 1) await Promise.all(conversations.slice(0, 5).map((conversation) => conversation.end()));
    }
    const outcomes = await Promise.all(conversations.map((conversation) => conversation.end()));
    expect(outcomes.every((outcome) => outcome.status === 'delivered')).toBe(true);
    expect(errors.filter((error) => !(error instanceof RecordingError))).toEqual([]);
    // The five ended early kept two turns; each later call on them (interaction, llm,
    // end, in two rounds) was reported.
    expect(errors).toHaveLength(5 * 2 * 3);

    expect(posts()).toHaveLength(30);
    const stored = server.store.listInteractions(PROJECT);
    for (const [i, user] of users.entries()) {
      const inputs = stored.filter((interaction) => interaction.end_user === user).map((interaction) => interaction.input);
      const rounds = i < 5 ? [0, 1] : [0, 1, 2, 3];
      expect(inputs).toEqual(rounds.map((round) => `${user} asks ${round}`));
    }
  });

  it('crops a conversation over maxConversationBytes instead of having it refused', async () => {
    const { nebuly, errors } = client({ recorder: { maxConversationBytes: 20_000 } });
    const conversation = nebuly.startConversation({ end_user: 'u' });
    const turn = conversation.interaction({ input: 'Summarize this' });
    turn.retrieval({ source: 'files', input: 'report.pdf', outputs: ['x'.repeat(60_000)] });
    turn.end({ output: 'Done' });
    await expect(conversation.end()).resolves.toMatchObject({ status: 'delivered' });

    const body = posts()[0]?.body ?? '';
    expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(20_000);
    expect(body).toMatch(/x… \[cropped \d+ chars\]"/);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'conversation_cropped' });
    expect(server.store.listInteractions(PROJECT)).toMatchObject([{ input: 'Summarize this', output: 'Done' }]);
  });

  it('sends a conversation too large for one bulk body interaction by interaction, leaving none out', async () => {
    const { nebuly, errors } = client();
    const conversation = nebuly.startConversation({ end_user: 'u', conversation_id: 'long-chat' });
    // ~854 kB in all: over the default maxConversationBytes (500 kB).
    for (let index = 0; index < 1_000; index += 1) {
      conversation.interaction({ input: `question ${index} ${'q'.repeat(400)}` }).end({ output: `answer ${index} ${'a'.repeat(400)}` });
    }
    await expect(conversation.end()).resolves.toMatchObject({ status: 'delivered' });

    expect(errors).toEqual([]);
    expect(posts()).toHaveLength(0);
    const sent = server.requests.all().filter((request) => request.path === ENDPOINTS.sendInteraction.path);
    expect(sent).toHaveLength(1_000);
    const stored = server.store.listInteractions(PROJECT);
    // Sent side by side, they arrive in any order; each carries its time_start.
    expect(stored.map((interaction) => interaction.input.split(' ').slice(0, 2).join(' ')).sort()).toEqual(
      Array.from({ length: 1_000 }, (_, index) => `question ${index}`).sort(),
    );
    expect(new Set(stored.map((interaction) => interaction.conversation_id))).toEqual(new Set(['long-chat']));
    expect(stored.every((interaction) => interaction.end_user === 'u')).toBe(true);
  });

  it('in a conversation sent interaction by interaction, crops only the one interaction over the limit', async () => {
    const { nebuly, errors } = client({ recorder: { maxConversationBytes: 20_000 } });
    const conversation = nebuly.startConversation({ end_user: 'u', conversation_id: 'chat' });
    conversation.interaction({ input: 'first' }).end({ output: 'y'.repeat(15_000) });
    const turn = conversation.interaction({ input: 'Summarize this' });
    turn.retrieval({ source: 'files', input: 'report.pdf', outputs: ['x'.repeat(60_000)] });
    turn.end({ output: 'Done' });
    conversation.interaction({ input: 'last' }).end({ output: 'z'.repeat(15_000) });
    await expect(conversation.end()).resolves.toMatchObject({ status: 'delivered' });

    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'conversation_cropped', message: expect.stringContaining('sent on its own') });
    const stored = server.store.listInteractions(PROJECT);
    expect(stored.map((interaction) => interaction.output).sort()).toEqual(['Done', 'y'.repeat(15_000), 'z'.repeat(15_000)]);
    const bodies = server.requests.all().filter((request) => request.path === ENDPOINTS.sendInteraction.path);
    expect(bodies).toHaveLength(3);
    for (const request of bodies) expect(new TextEncoder().encode(request.body).length).toBeLessThanOrEqual(20_000);
  });

  it('shuts down within its time-out, aborting a slow request and reporting it', async () => {
    server.faults.add({ delayMs: 10_000, path: CONVERSATION_PATH });
    const { nebuly, errors } = client({ timeoutMs: 30_000 });
    const conversation = nebuly.startConversation({ end_user: 'u', conversation_id: 'c-slow' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    const outcome = conversation.end();

    const started = performance.now();
    await nebuly.shutdown({ timeoutMs: 300 });
    // It waited for its deadline (a lower bound holds on any machine); that it did not
    // wait for the answer, held 10 s, is what the abort below says, not a clock.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    await expect(outcome).resolves.toMatchObject({ status: 'failed' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(DeliveryError);
    expect((errors[0] as DeliveryError).cause).toBeInstanceOf(AbortError);
    // Every later call gets the first call's report.
    expect(await nebuly.shutdown()).toEqual({ delivered: 0, failed: 1, dropped: 0 });
  });

  it('sends everything on a shutdown that has time, including conversations still open', async () => {
    const { nebuly, errors } = client();
    for (let i = 0; i < 6; i += 1) {
      const conversation = nebuly.startConversation({ end_user: `u${i}` });
      conversation.interaction({ input: `q${i}` }).end({ output: 'a' });
      if (i % 2 === 0) void conversation.end();
    }
    await nebuly.shutdown();
    // Filtered by status: the aborted request of an earlier test may be logged late.
    expect(posts().filter((request) => request.status === 202)).toHaveLength(6);
    expect(server.store.listInteractions(PROJECT)).toHaveLength(6);
    expect(errors).toEqual([]);
  });

  it('delivers a burst of conversations ended in one synchronous loop, far past the old bound of 1,000', async () => {
    const count = 1_100;
    const { nebuly, errors } = client();
    const outcomes = [];
    for (let i = 0; i < count; i += 1) {
      const conversation = nebuly.startConversation({ end_user: `burst-${i}` });
      conversation.interaction({ input: 'q' }).end({ output: 'a' });
      outcomes.push(conversation.end());
    }
    const settled = await Promise.all(outcomes);
    expect(errors).toEqual([]);
    expect(settled.filter((outcome) => outcome.status === 'delivered')).toHaveLength(count);
    expect(new Set(server.store.listInteractions(PROJECT).map((stored) => stored.end_user)).size).toBe(count);
  });
});
