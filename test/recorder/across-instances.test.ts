import { afterEach, describe, expect, it } from 'vitest';
import { NebulyClient, type NebulyError, type RecorderOptions } from '../../src/index.js';
import { createReferenceHandler } from '../../src/reference-server/index.js';
import { sharedStore } from './shared-store.js';
import { beginCall } from '../../src/integrations/target.js';
import { endConversation } from '../../src/integrations/interactions.js';

const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
const INTERACTIONS = '/event-ingestion/api/v3/events/trace_interaction';

const clients: NebulyClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown({ timeoutMs: 1_000 })));
});

/** A reference server, and `count` instances of a backend sending to it through one store. */
function instances(count: number, recorder: RecorderOptions = {}) {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const store = sharedStore();
  const errors: NebulyError[] = [];
  /** The Idempotency-Key of each request, by path, in arrival order. */
  const keys: Record<string, (string | null)[]> = {};
  const made = Array.from({ length: count }, () => {
    const client = new NebulyClient({
      apiKey: 'test-key',
      baseUrl: 'http://nebuly.reference.test',
      fetch: (input, init) => {
        const request = new Request(input, init);
        (keys[new URL(request.url).pathname] ??= []).push(request.headers.get('idempotency-key'));
        return reference.fetch(request);
      },
      onError: (error) => errors.push(error),
      recorder: { store, sweepIntervalMs: 0, ...recorder },
    });
    clients.push(client);
    return client;
  });
  const requests = (path: string) => reference.requests.all({ path });
  return { clients: made, reference, errors, requests, store, keys: (path: string) => keys[path] ?? [] };
}

function inputsOf(body: string): string[] {
  return (JSON.parse(body) as { conversation: { interactions: { input: string }[] } }).conversation.interactions.map(
    (interaction) => interaction.input,
  );
}

describe('a conversation whose turns are served by several instances', () => {
  it('is sent once, whole, turns in order, by the instance that ends it', async () => {
    const { clients: [a, b, c], errors, requests, keys } = instances(3);
    const turnOn = (client: NebulyClient, input: string) =>
      client.conversation({ conversation_id: 'chat-1', end_user: 'alice' }).interaction({ input }).end({ output: `re: ${input}` });
    turnOn(a!, 'one');
    turnOn(b!, 'two');
    turnOn(a!, 'three');
    turnOn(c!, 'four');
    await Promise.all([a!.flush(), b!.flush(), c!.flush()]);
    expect(requests(CONVERSATIONS)).toHaveLength(0);

    const outcome = await b!.conversation({ conversation_id: 'chat-1', end_user: 'alice' }).end();
    expect(outcome).toEqual({ status: 'delivered', conversationId: 'chat-1' });
    const sent = requests(CONVERSATIONS);
    expect(sent).toHaveLength(1);
    expect(inputsOf(sent[0]!.body)).toEqual(['one', 'two', 'three', 'four']);
    expect(keys(CONVERSATIONS)[0]).toMatch(/^[\w-]{16,}$/);
    expect(errors).toEqual([]);

    // Later turns of the same chat are the next conversation, sent by whoever ends it.
    turnOn(c!, 'five');
    await c!.flush();
    expect(await a!.conversation({ conversation_id: 'chat-1', end_user: 'alice' }).end()).toMatchObject({ status: 'delivered' });
    expect(requests(CONVERSATIONS).map((request) => inputsOf(request.body))).toEqual([['one', 'two', 'three', 'four'], ['five']]);
    expect(keys(CONVERSATIONS)[1]).not.toBe(keys(CONVERSATIONS)[0]);
  });

  it('shutdown() of one instance leaves its conversations in the store, open turns ended, for the others', async () => {
    const { clients: [a, b], errors, requests } = instances(2);
    const conversation = a!.conversation({ conversation_id: 'chat-2', end_user: 'bob' });
    conversation.interaction({ input: 'ended' }).end({ output: 'yes' });
    conversation.interaction({ input: 'still open' });
    await a!.shutdown();
    expect(requests(CONVERSATIONS)).toHaveLength(0);
    expect(errors.map((error) => ('code' in error ? error.code : error.name))).toEqual(['interaction_open']);

    await b!.conversation({ conversation_id: 'chat-2', end_user: 'bob' }).end();
    expect(requests(CONVERSATIONS).map((request) => inputsOf(request.body))).toEqual([['ended', 'still open']]);
  });

  it('sweep() sends what is idle in the store, from any instance, once', async () => {
    let now = Date.parse('2026-05-01T10:00:00.000Z');
    const { clients: [a, b, c], requests } = instances(3, { idleTimeoutMs: 60_000, now: () => now });
    a!.conversation({ conversation_id: 'idle', end_user: 'u' }).interaction({ input: 'q' }).end({ output: 'a' });
    await a!.flush();
    now += 30_000;
    b!.conversation({ conversation_id: 'active', end_user: 'u' }).interaction({ input: 'q2' }).end({ output: 'a2' });
    await b!.flush();
    now += 31_000;
    const [first, second] = await Promise.all([b!.sweep(), c!.sweep()]);
    expect(first.delivered + second.delivered).toBe(1);
    expect(requests(CONVERSATIONS).map((request) => inputsOf(request.body))).toEqual([['q']]);
    now += 60_000;
    await a!.sweep();
    expect(requests(CONVERSATIONS).map((request) => inputsOf(request.body))).toEqual([['q'], ['q2']]);
  });

  it('a sender that died mid-send leaves the conversation to a later sweep, with the same Idempotency-Key', async () => {
    let now = Date.parse('2026-05-01T10:00:00.000Z');
    const { clients: [a, b], store, keys } = instances(2, { now: () => now, leaseMs: 10_000 });
    a!.conversation({ conversation_id: 'c', end_user: 'u' }).interaction({ input: 'q' }).end({ output: 'a' });
    await a!.flush();
    // A sender claims it and dies before the service answers.
    const claim = await store.claim('c:c', now, 10_000);
    expect(claim).toBeDefined();
    expect(await b!.sweep()).toEqual({ delivered: 0, failed: 0, dropped: 0 });
    now += 10_000;
    expect(await b!.sweep()).toEqual({ delivered: 1, failed: 0, dropped: 0 });
    expect(keys(CONVERSATIONS)).toEqual([claim!.generation]);
  });
});

describe('an integration with a standalone target', () => {
  it('records into nebuly.conversation(): one conversation across instances', async () => {
    const { clients: [a, b], requests } = instances(2);
    for (const [client, input] of [[a!, 'first'], [b!, 'second']] as const) {
      const call = beginCall({ nebuly: client, endUser: 'dana', conversationId: 'chat-7' }, { input });
      call.end({ output: `re: ${input}` });
    }
    await Promise.all([a!.flush(), b!.flush()]);
    expect(await endConversation({ nebuly: b!, endUser: 'dana', conversationId: 'chat-7' })).toMatchObject({ status: 'delivered' });
    expect(requests(CONVERSATIONS).map((request) => inputsOf(request.body))).toEqual([['first', 'second']]);
  });
});

describe("delivery: 'interaction'", () => {
  it('sends each ended turn at once to the single-interaction endpoint with its conversation_id, keyed by turn.id', async () => {
    const { clients: [a, b], errors, requests, keys } = instances(2, { delivery: 'interaction' });
    const turn = a!.conversation({ conversation_id: 'chat-9', end_user: 'carol', tags: { plan: 'pro' } }).interaction({ input: 'hi' });
    turn.llm({ model: 'm', messages: [{ role: 'user', content: 'hi' }], output: 'hello' });
    turn.end({ output: 'hello' });
    b!.conversation({ conversation_id: 'chat-9', end_user: 'carol' }).interaction({ input: 'again' }).end({ output: 'yes' });
    await Promise.all([a!.flush(), b!.flush()]);
    const sent = requests(INTERACTIONS);
    expect(sent).toHaveLength(2);
    // Two instances send side by side: in no promised order.
    const bodies = sent.map((request) => JSON.parse(request.body) as { interaction: Record<string, unknown>; traces: unknown[] });
    const first = bodies.find((body) => body.interaction.input === 'hi')!;
    expect(first.interaction).toMatchObject({ conversation_id: 'chat-9', end_user: 'carol', input: 'hi', output: 'hello', tags: { plan: 'pro' } });
    expect(first.traces).toEqual([{ model: 'm', messages: [{ role: 'user', content: 'hi' }], output: 'hello' }]);
    expect(keys(INTERACTIONS)[bodies.indexOf(first)]).toBe(turn.id);
    expect(requests(CONVERSATIONS)).toHaveLength(0);
    expect(errors).toEqual([]);
  });
});

describe('nebuly.conversation()', () => {
  it('resumes the open conversation of this process by id, and refuses a call without an id', async () => {
    const { clients: [a], errors } = instances(1);
    const first = a!.conversation({ conversation_id: 'x', end_user: 'u' });
    expect(a!.conversation({ conversation_id: 'x', end_user: 'u' })).toBe(first);
    expect(a!.startConversation({ conversation_id: 'x', end_user: 'u' })).not.toBe(first);
    const refused = a!.conversation({ end_user: 'u' } as never);
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining('conversation_id is required by nebuly.conversation()')]);
    expect(await refused.end()).toMatchObject({ status: 'empty' });
  });
});
