import { describe, expect, it } from 'vitest';
import { NebulyClient, type NebulyError } from '../../src/index.js';
import { createReferenceHandler } from '../../src/reference-server/index.js';
import { sharedStore } from './shared-store.js';

const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
const FEEDBACK = '/event-ingestion/api/v1/events/feedback';

/** Two instances of a backend through one store, marked shared, and the reference server. */
function instances(count = 2, now?: () => number, delivery: 'conversation' | 'interaction' = 'conversation') {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const store = sharedStore();
  const errors: NebulyError[] = [];
  const clients = Array.from(
    { length: count },
    () =>
      new NebulyClient({
        apiKey: 'test-key',
        baseUrl: 'http://nebuly.reference.test',
        fetch: (input, init) => reference.fetch(new Request(input, init)),
        onError: (error) => errors.push(error),
        recorder: { store, delivery, sweepIntervalMs: 0, ...(now === undefined ? {} : { now }) },
      }),
  );
  const bodies = (path: string) => reference.requests.all({ path }).map((request) => JSON.parse(request.body) as { conversation: { interactions: { feedback_actions?: unknown }[] } } & Record<string, unknown>);
  return { clients, errors, bodies, reference };
}

describe('nebuly.feedback()', () => {
  it('attaches to a turn still open in this process', async () => {
    const { clients: [a], bodies, errors } = instances(1);
    const conversation = a!.conversation({ conversation_id: 'c', end_user: 'u' });
    const turn = conversation.interaction({ input: 'q' });
    await a!.feedback({ conversation_id: 'c', interaction_id: turn.id, slug: 'thumbs_up' });
    turn.end({ output: 'a' });
    await conversation.end();
    expect(bodies(CONVERSATIONS)[0]?.conversation.interactions[0]?.feedback_actions).toEqual([{ slug: 'thumbs_up' }]);
    expect(errors).toEqual([]);
  });

  it('attaches, from another instance, to the stored interaction while its conversation is open', async () => {
    const { clients: [a, b], bodies, errors } = instances();
    const turn = a!.conversation({ conversation_id: 'c', end_user: 'u' }).interaction({ input: 'q' });
    turn.end({ output: 'a' });
    await a!.flush();
    await b!.feedback({ conversation_id: 'c', interaction_id: turn.id, slug: 'rating', value: 4 });
    await b!.conversation({ conversation_id: 'c', end_user: 'u' }).end();
    expect(bodies(CONVERSATIONS)[0]?.conversation.interactions[0]?.feedback_actions).toEqual([{ slug: 'rating', value: 4 }]);
    expect(bodies(FEEDBACK)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('goes to the feedback endpoint once the conversation was sent, with input, output, end user and a later time', async () => {
    let now = Date.parse('2026-05-01T10:00:00.000Z');
    const { clients: [a, b], bodies, errors } = instances(2, () => now);
    const conversation = a!.conversation({ conversation_id: 'c', end_user: 'user-9' });
    const turn = conversation.interaction({ input: 'Where is my order?' });
    now += 1_000;
    turn.end({ output: 'It left on Monday.' });
    await conversation.end();
    now += 60_000;
    await b!.feedback({ conversation_id: 'c', interaction_id: turn.id, slug: 'comment', text: 'thanks' });
    expect(bodies(FEEDBACK)).toEqual([
      {
        action: { slug: 'comment', text: 'thanks' },
        metadata: {
          input: 'Where is my order?',
          output: 'It left on Monday.',
          end_user: 'user-9',
          timestamp: new Date(now).toISOString(),
        },
      },
    ]);
    // The reference server linked it to the interaction: it answered 2xx.
    expect(errors).toEqual([]);
    expect(await b!.flush()).toEqual({ delivered: 0, failed: 0, dropped: 0 });
  });

  it("with delivery: 'interaction', goes to the feedback endpoint once the interaction was sent, by turn and by id", async () => {
    const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
    const errors: NebulyError[] = [];
    const nebuly = new NebulyClient({
      apiKey: 'test-key',
      baseUrl: 'http://nebuly.reference.test',
      fetch: (input, init) => reference.fetch(new Request(input, init)),
      onError: (error) => errors.push(error),
      recorder: { delivery: 'interaction' },
    });
    const conversation = nebuly.conversation({ conversation_id: 'c', end_user: 'user-9' });
    const turn = conversation.interaction({ input: 'Where is my order?' });
    turn.end({ output: 'It left on Monday.' });
    const other = conversation.interaction({ input: 'Thanks' });
    other.end({ output: 'You are welcome.' });
    await nebuly.flush();
    // Right after its end (the turn's own feedback), and once its conversation ended (by id).
    turn.feedback({ slug: 'thumbs_up' });
    await conversation.end();
    await nebuly.feedback({ conversation_id: 'c', interaction_id: other.id, slug: 'comment', text: 'ok' });
    await nebuly.flush();

    const feedback = reference.requests.all({ path: FEEDBACK }).map((request) => JSON.parse(request.body) as { action: unknown; metadata: Record<string, unknown> });
    expect(feedback).toEqual([
      { action: { slug: 'thumbs_up' }, metadata: expect.objectContaining({ input: 'Where is my order?', output: 'It left on Monday.', end_user: 'user-9' }) },
      { action: { slug: 'comment', text: 'ok' }, metadata: expect.objectContaining({ input: 'Thanks', output: 'You are welcome.', end_user: 'user-9' }) },
    ]);
    // The reference server linked both to their interactions: it answered 2xx.
    expect(errors).toEqual([]);
  });

  it("with delivery: 'interaction' and a shared store, reaches the interaction sent by another instance", async () => {
    const { clients: [a, b], errors, reference } = instances(2, undefined, 'interaction');
    const turn = a!.conversation({ conversation_id: 'c', end_user: 'user-9' }).interaction({ input: 'Where is my order?' });
    turn.end({ output: 'It left on Monday.' });
    await a!.flush();
    await b!.feedback({ conversation_id: 'c', interaction_id: turn.id, slug: 'thumbs_up' });
    await b!.flush();
    const feedback = reference.requests.all({ path: FEEDBACK }).map((request) => JSON.parse(request.body) as { action: unknown; metadata: Record<string, unknown> });
    expect(feedback).toEqual([{ action: { slug: 'thumbs_up' }, metadata: expect.objectContaining({ input: 'Where is my order?', output: 'It left on Monday.', end_user: 'user-9' }) }]);
    expect(errors).toEqual([]);
    await Promise.all([a!.shutdown(), b!.shutdown()]);
  });

  it('is reported, never thrown, for an unknown interaction or bad params', async () => {
    const { clients: [a], errors } = instances(1);
    await expect(a!.feedback({ conversation_id: 'c', interaction_id: 'nope', slug: 'thumbs_up' })).resolves.toBeUndefined();
    await expect(a!.feedback({ conversation_id: '', interaction_id: 'x', slug: 'nope' as never })).resolves.toBeUndefined();
    await expect(a!.feedback(null as never)).resolves.toBeUndefined();
    expect(errors.map((error) => ('code' in error ? error.code : error.name))).toEqual([
      'feedback_unknown_interaction',
      'ValidationError',
      'ValidationError',
    ]);
    expect(errors[1]?.message).toMatch(/conversation_id must be a non-empty string/);
    expect(errors[1]?.message).toMatch(/slug/);
  });

  it('turn.feedback() after the turn was stored goes to the store', async () => {
    const { clients: [a], bodies } = instances(1);
    const conversation = a!.conversation({ conversation_id: 'c', end_user: 'u' });
    const turn = conversation.interaction({ input: 'q' }).end({ output: 'a' });
    await a!.flush();
    turn.feedback({ slug: 'copy_output' });
    await a!.flush();
    await conversation.end();
    expect(bodies(CONVERSATIONS)[0]?.conversation.interactions[0]?.feedback_actions).toEqual([{ slug: 'copy_output' }]);
  });
});
