import { describe, expect, it } from 'vitest';
import { maskPII, memoryStore, NebulyClient, type NebulyError, type RecorderOptions } from '../../src/index.js';
import { createReferenceHandler } from '../../src/reference-server/index.js';
import type { ConversationStore, StoredInteraction } from '../../src/types/store.js';

const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
const INTERACTIONS = '/event-ingestion/api/v3/events/trace_interaction';
const EMAIL = 'alice@example.com';

/** A memory store that also keeps every interaction appended to it, to look at what it holds. */
function watchedStore(): { store: ConversationStore; appended: StoredInteraction[] } {
  const inner = memoryStore();
  const appended: StoredInteraction[] = [];
  const store: ConversationStore = {
    shared: false,
    append: (id, endUser, interactions, now) => {
      appended.push(...interactions);
      return inner.append(id, endUser, interactions, now);
    },
    attach: (...args) => inner.attach(...args),
    keep: (...args) => inner.keep(...args),
    claim: (...args) => inner.claim(...args),
    claimIdle: (...args) => inner.claimIdle(...args),
    complete: (...args) => inner.complete(...args),
    release: (...args) => inner.release(...args),
    sent: (...args) => inner.sent(...args),
  };
  return { store, appended };
}

function setup(options: { mask?: (typeof maskPII) | ((body: never) => never); sampleRate?: number; recorder?: RecorderOptions; failing?: boolean }) {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const errors: NebulyError[] = [];
  const watched = watchedStore();
  const nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://nebuly.reference.test',
    maxRetries: 0,
    fetch: (input, init) => (options.failing ? Promise.resolve(new Response('down', { status: 503 })) : reference.fetch(new Request(input, init))),
    onError: (error) => errors.push(error),
    mask: options.mask as never,
    sampleRate: options.sampleRate,
    recorder: { store: watched.store, ...options.recorder },
  });
  const bodies = (path: string) => reference.requests.all({ path }).map((request) => request.body);
  return { nebuly, errors, bodies, appended: watched.appended };
}

function record(nebuly: NebulyClient, endUser = 'u-1') {
  const conversation = nebuly.conversation({ conversation_id: `chat-${endUser}`, end_user: endUser });
  const turn = conversation.interaction({ input: `write to ${EMAIL}` });
  turn.llm({ model: 'm', messages: [{ role: 'user', content: `my mail is ${EMAIL}` }], output: `sent to ${EMAIL}` });
  turn.retrieval({ source: 'crm', input: EMAIL, outputs: [`${EMAIL} is a customer`] });
  turn.end({ output: `done, ${EMAIL}` });
  return conversation;
}

describe('mask in the recorder', () => {
  it('masks every interaction before the store holds it and before it is sent, in bulk', async () => {
    const { nebuly, errors, bodies, appended } = setup({ mask: maskPII });
    const conversation = record(nebuly);
    await nebuly.flush();
    expect(JSON.stringify(appended)).not.toContain(EMAIL);
    expect(JSON.stringify(appended)).toContain('[EMAIL]');
    expect(await conversation.end()).toMatchObject({ status: 'delivered' });
    const [body] = bodies(CONVERSATIONS);
    expect(body).toContain('[EMAIL]');
    expect(body).not.toContain(EMAIL);
    expect(errors).toEqual([]);
  });

  it("masks each interaction sent with delivery: 'interaction'", async () => {
    const { nebuly, bodies } = setup({ mask: maskPII, recorder: { delivery: 'interaction' } });
    record(nebuly);
    await nebuly.flush();
    const [body] = bodies(INTERACTIONS);
    expect(body).toContain('[EMAIL]');
    expect(body).not.toContain(EMAIL);
  });

  it('keeps the payload of a DeliveryError masked', async () => {
    const { nebuly, errors } = setup({ mask: maskPII, failing: true });
    await record(nebuly).end();
    const failed = errors.find((error) => error.name === 'DeliveryError') as NebulyError & { payload: string };
    expect(failed.payload).toContain('[EMAIL]');
    expect(failed.payload).not.toContain(EMAIL);
  });

  it('fails closed: a mask that throws sends placeholders, never the content, and reports a MaskError', async () => {
    const { nebuly, errors, bodies } = setup({
      mask: () => {
        throw new Error(`cannot mask ${EMAIL}`);
      },
    });
    await record(nebuly).end();
    const [body] = bodies(CONVERSATIONS);
    expect(body).toContain('[MASK FAILED]');
    expect(body).not.toContain(EMAIL);
    expect(errors.map((error) => error.name)).toEqual(['MaskError']);
    expect(JSON.stringify(errors[0])).not.toContain(EMAIL);
    expect(errors[0]?.message).not.toContain(EMAIL);
  });
});

describe('sampleRate in the recorder', () => {
  it('records nothing of an end user left out, at no cost after the decision', async () => {
    const { nebuly, bodies, appended, errors } = setup({ sampleRate: 0 });
    const conversation = record(nebuly);
    expect(await conversation.end()).toEqual({ status: 'empty', conversationId: 'chat-u-1' });
    await nebuly.flush();
    expect(appended).toEqual([]);
    expect(bodies(CONVERSATIONS)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps or leaves out a user for all of their conversations, the same in every client', async () => {
    const first = setup({ sampleRate: 0.5 });
    const second = setup({ sampleRate: 0.5 });
    const users = Array.from({ length: 40 }, (_, i) => `user-${i}`);
    for (const user of users) {
      await record(first.nebuly, user).end();
      await record(second.nebuly, user).end();
    }
    const sentBy = (bodies: string[]) => bodies.map((body) => (JSON.parse(body) as { conversation: { end_user: string } }).conversation.end_user).sort();
    const kept = sentBy(first.bodies(CONVERSATIONS));
    expect(kept).toEqual(sentBy(second.bodies(CONVERSATIONS)));
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(35);
  });
});
