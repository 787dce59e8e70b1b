import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { RecordingError } from '../../src/recorder/errors.js';
import type { Message } from '../../src/schemas/index.js';
import { kinds, manualClock, setup, T0 } from './setup.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('recording a conversation', () => {
  it('sends one POST with every interaction in order, steps in order, tags merged', async () => {
    const clock = manualClock();
    const { transport, errors, recorder } = setup({ now: clock.now });
    const conversation = recorder.startConversation({ end_user: 'user-1', tags: { app: 'web', plan: 'free' } });

    const first = conversation.interaction({ input: 'Find the leave policy', tags: { plan: 'pro' } });
    first.embedding({ model: 'e5', input: 'leave policy', input_tokens: 2 });
    first.retrieval({ source: 'handbook', input: 'leave policy', outputs: ['16 weeks', 'ask HR'] });
    first.llm({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Find the leave policy' }],
      output: 'It is 16 weeks.',
      input_tokens: 40,
      output_tokens: 6,
      cost: 12,
    });
    clock.advance(1200);
    first.end({ output: 'It is 16 weeks.' });
    first.feedback({ slug: 'rating', value: 5 });

    clock.advance(30_000);
    const second = conversation.interaction({ input: 'Thanks' });
    clock.advance(300);
    second.end({ output: 'You are welcome.' });

    const outcome = await conversation.end();
    expect(outcome).toEqual({ status: 'delivered', conversationId: conversation.id });
    expect(errors).toEqual([]);
    expect(transport.requests).toHaveLength(1);
    expect(transport.requests[0]?.method).toBe('POST');
    expect(transport.requests[0]?.path).toBe('/event-ingestion/api/v2/events/trace_conversation');
    expect(transport.bodies[0]).toEqual({
      conversation: {
        end_user: 'user-1',
        interactions: [
          {
            input: 'Find the leave policy',
            output: 'It is 16 weeks.',
            time_start: iso(T0),
            time_end: iso(T0 + 1200),
            tags: { app: 'web', plan: 'pro' },
            feedback_actions: [{ slug: 'rating', value: 5 }],
            trace: [
              { model: 'e5', input: 'leave policy', input_tokens: 2 },
              { source: 'handbook', input: 'leave policy', outputs: ['16 weeks', 'ask HR'] },
              {
                model: 'gpt-4o',
                messages: [{ role: 'user', content: 'Find the leave policy' }],
                output: 'It is 16 weeks.',
                input_tokens: 40,
                output_tokens: 6,
                cost: 12,
              },
            ],
          },
          {
            input: 'Thanks',
            output: 'You are welcome.',
            time_start: iso(T0 + 31_200),
            time_end: iso(T0 + 31_500),
            tags: { app: 'web', plan: 'free' },
            feedback_actions: [],
            trace: [],
          },
        ],
      },
    });
  });

  it('records arrays as they were at the call, though the caller keeps changing them', async () => {
    const { transport, recorder } = setup();
    const history: Message[] = [{ role: 'user', content: 'one' }];
    const outputs = ['a'];
    const conversation = recorder.startConversation({ end_user: 'u' });
    const turn = conversation.interaction({ input: 'one' });
    turn.llm({ model: 'm', messages: history, output: 'x' });
    turn.retrieval({ source: 's', input: 'q', outputs });
    history.push({ role: 'assistant', content: 'x' });
    outputs.push('b');
    turn.end({ output: 'x' });
    await conversation.end();
    const trace = (transport.bodies[0] as { conversation: { interactions: { trace: unknown[] }[] } }).conversation
      .interactions[0]?.trace;
    expect(trace).toEqual([
      { model: 'm', messages: [{ role: 'user', content: 'one' }], output: 'x' },
      { source: 's', input: 'q', outputs: ['a'] },
    ]);
  });

  it('reports turn tags that are no object, instead of spreading them, and applies the conversation’s', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u', tags: { app: 'web' } });
    const notTags = ['ab', ['a', 'b'], new Map([['a', 'b']])] as unknown as Record<string, string>[];
    for (const tags of notTags) conversation.interaction({ input: 'q', tags }).end({ output: 'a' });
    await conversation.end();
    // One report per interaction, each naming it.
    expect(kinds(errors)).toEqual(['ValidationError', 'ValidationError', 'ValidationError']);
    expect(errors.map((error) => (error as ValidationError).issues.map((issue) => issue.path))).toEqual([
      [['tags']],
      [['tags']],
      [['tags']],
    ]);
    const sent = (transport.bodies[0] as { conversation: { interactions: { tags?: unknown }[] } }).conversation.interactions;
    expect(sent.map((interaction) => interaction.tags)).toEqual([{ app: 'web' }, { app: 'web' }, { app: 'web' }]);
  });

  it('records each message as it was at the call, though the caller changes it later', async () => {
    const { transport, errors, recorder } = setup();
    const question: Message = { role: 'user', content: 'one' };
    const streaming: Message = { role: 'assistant', content: 'Hel' };
    const conversation = recorder.startConversation({ end_user: 'u' });
    const turn = conversation.interaction({ input: 'one' });
    turn.llm({ model: 'm', messages: [question, streaming], output: 'Hel' });
    streaming.content += 'lo!';
    question.role = 'system';
    // Entries that are no message are kept as given, for validation to report.
    turn.llm({ model: 'm', messages: [null, 'hi'] as unknown as Message[], output: 'x' });
    turn.end({ output: 'Hello!' });
    await conversation.end();
    const trace = (transport.bodies[0] as { conversation: { interactions: { trace: unknown[] }[] } }).conversation
      .interactions[0]?.trace;
    expect(trace).toEqual([
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'one' },
          { role: 'assistant', content: 'Hel' },
        ],
        output: 'Hel',
      },
    ]);
    expect((errors[0] as ValidationError).issues.map((issue) => issue.pathText)).toEqual([
      'trace[1].messages[0]',
      'trace[1].messages[1]',
    ]);
  });

  it('sends an interaction still open at the end with output "" and the end time, and reports it', async () => {
    const clock = manualClock();
    const { transport, errors, recorder } = setup({ now: clock.now });
    const conversation = recorder.startConversation({ end_user: 'u', conversation_id: 'c-open' });
    conversation.interaction({ input: 'never answered' }).llm({ model: 'm', messages: [], output: 'partial' });
    clock.advance(5000);
    await conversation.end();
    expect(transport.bodies[0]).toMatchObject({
      conversation: {
        interactions: [{ input: 'never answered', output: '', time_start: iso(T0), time_end: iso(T0 + 5000) }],
      },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(RecordingError);
    expect(errors[0]).toMatchObject({ code: 'interaction_open', conversationId: 'c-open' });
  });

  it('closes only the turns still open, in the order they started, whichever ended between them', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.conversation({ end_user: 'u', conversation_id: 'c-some' });
    const first = conversation.interaction({ input: 'first' });
    conversation.interaction({ input: 'second' }).end({ output: 'answered' });
    const third = conversation.interaction({ input: 'third' });
    conversation.interaction({ input: 'fourth' }).end({ output: 'answered too' });
    first.feedback({ slug: 'thumbs_up' });
    // By id, as from another request: found among the open turns.
    await recorder.feedback({ conversation_id: 'c-some', interaction_id: third.id, slug: 'thumbs_down' });
    await conversation.end();
    const sent = (transport.bodies[0] as { conversation: { interactions: { input: string; output: string; feedback_actions?: unknown }[] } })
      .conversation.interactions;
    expect(sent.map(({ input, output }) => [input, output])).toEqual([
      ['first', ''],
      ['second', 'answered'],
      ['third', ''],
      ['fourth', 'answered too'],
    ]);
    expect(sent.map((interaction) => interaction.feedback_actions)).toEqual([[{ slug: 'thumbs_up' }], [], [{ slug: 'thumbs_down' }], []]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('2 interaction(s) of conversation c-some had not ended');
    expect(first.ended && third.ended).toBe(true);
  });

  it('sends nothing for a conversation without interactions', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u' });
    await expect(conversation.end()).resolves.toEqual({ status: 'empty', conversationId: conversation.id });
    await recorder.flush();
    expect(transport.requests).toHaveLength(0);
    expect(errors).toEqual([]);
  });

  it('ends once: end() again returns the same promise, and sends once', async () => {
    const { transport, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'a' }).end({ output: 'b' });
    const first = conversation.end();
    expect(conversation.end()).toBe(first);
    expect(conversation.ended).toBe(true);
    await first;
    expect(transport.requests).toHaveLength(1);
  });

});

describe('turn.id', () => {
  it('is a stable, unique id per interaction, kept after the turn ends', () => {
    const { recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'user-1' });
    const first = conversation.interaction({ input: 'a' });
    const second = conversation.interaction({ input: 'b' });
    const id = first.id;
    first.end({ output: 'A' });
    expect(first.id).toBe(id);
    expect(typeof id).toBe('string');
    expect(id.length).toBeGreaterThanOrEqual(16);
    expect(second.id).not.toBe(id);
  });

  it('is the id the interaction is stored and sent with, whether read before it is stored or only after', async () => {
    const { recorder, transport } = setup({ delivery: 'interaction' });
    const conversation = recorder.startConversation({ end_user: 'user-1' });
    const readFirst = conversation.interaction({ input: 'a' });
    const readBefore = readFirst.id;
    readFirst.end({ output: 'A' });
    const readLater = conversation.interaction({ input: 'b' }).end({ output: 'B' });
    await recorder.flush();
    expect(transport.requests.map((request) => request.idempotencyKey)).toEqual([readBefore, readLater.id]);
    expect(readLater.id).toBe(readLater.id);
    expect(new Set([readBefore, readLater.id]).size).toBe(2);
  });
});
