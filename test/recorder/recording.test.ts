import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { RecordingError } from '../../src/recorder/errors.js';
import type { LLMStepInput, Message } from '../../src/schemas/index.js';
import { kinds, manualClock, settle, setup, T0 } from './setup.js';

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
    expect(kinds(errors)).toEqual(['ValidationError']);
    const { issues } = errors[0] as ValidationError;
    expect(issues.map((issue) => issue.path)).toEqual([
      ['interactions', 0, 'tags'],
      ['interactions', 1, 'tags'],
      ['interactions', 2, 'tags'],
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
      'interactions[0].trace[1].messages[0]',
      'interactions[0].trace[1].messages[1]',
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

  it('reports calls on an ended turn or conversation instead of throwing, and takes late feedback', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u', conversation_id: 'c-1' });
    const turn = conversation.interaction({ input: 'q' });
    turn.end({ output: 'a' });
    expect(turn.ended).toBe(true);
    turn.feedback({ slug: 'thumbs_up' }); // after the answer: normal
    turn.llm({ model: 'm', messages: [], output: 'late' });
    turn.end({ output: 'again' });
    await conversation.end();
    conversation.interaction({ input: 'too late' }).end({ output: 'x' });
    turn.feedback({ slug: 'thumbs_down' });

    expect(kinds(errors)).toEqual([
      'interaction_ended',
      'interaction_ended',
      'conversation_ended',
      'conversation_ended',
      'conversation_ended',
    ]);
    expect(errors.every((error) => error instanceof RecordingError && error.conversationId === 'c-1')).toBe(true);
    expect(errors[0]?.message).toMatch(/turn\.llm\(\)/);
    expect(transport.bodies[0]).toMatchObject({
      conversation: { interactions: [{ input: 'q', output: 'a', feedback_actions: [{ slug: 'thumbs_up' }], trace: [] }] },
    });
  });

  it('leaves out an invalid step alone and reports it by path', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'ok' }).end({ output: 'fine' });
    const turn = conversation.interaction({ input: 'q' });
    turn.retrieval({ source: 'db', input: 'q', outputs: [] });
    turn.llm({ model: 'm', messages: [{ role: 'wizard', content: 'x' }], output: 'a' } as unknown as LLMStepInput);
    turn.end({ output: 'a' });
    const outcome = await conversation.end();

    expect(outcome.status).toBe('delivered');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ValidationError);
    expect((errors[0] as ValidationError).issues.map((issue) => issue.pathText)).toEqual([
      'interactions[1].trace[1].messages[0].role',
    ]);
    expect(transport.bodies[0]).toMatchObject({
      conversation: { interactions: [{ input: 'ok' }, { input: 'q', trace: [{ source: 'db' }] }] },
    });
  });

  it('never throws, whatever it is given', async () => {
    const { transport, errors, recorder } = setup();
    const anything = (value: unknown) => value as never;
    const conversation = recorder.startConversation({ end_user: 'u' });
    expect(() => {
      const turn = conversation.interaction(anything(null));
      turn.llm(anything(undefined));
      turn.retrieval(anything(42));
      turn.embedding(anything('text'));
      turn.feedback(anything([]));
      turn.end(anything(null));
      conversation.interaction(anything({ input: 'kept', tags: 'not an object' })).end({ output: 'y' });
      conversation.interaction({ input: 'good' }).end({ output: 'z' });
    }).not.toThrow();
    const outcome = await conversation.end();
    expect(outcome.status).toBe('delivered');
    expect(transport.bodies[0]).toMatchObject({ conversation: { interactions: [{ input: 'kept' }, { input: 'good' }] } });
    const paths = (errors[0] as ValidationError).issues.map((issue) => issue.pathText);
    expect(paths).toContain('interactions[0].input');
    expect(paths).toContain('interactions[1].tags');
  });

  it('drops a conversation with nothing valid, reporting why', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 5 as unknown as string }).end({ output: 'x' });
    const outcome = await conversation.end();
    expect(outcome).toMatchObject({ status: 'dropped', error: errors[0] });
    expect(errors[0]).toBeInstanceOf(ValidationError);
    expect(transport.requests).toHaveLength(0);
  });

  it('leaves out a step holding a value JSON cannot hold, naming it, and sends the rest', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u' });
    const turn = conversation.interaction({ input: 'q' });
    turn.llm({ model: 'm', messages: [{ role: 'user', content: [{ type: 'x', big: 10n }] }], output: 'a' });
    turn.end({ output: 'a' });
    const outcome = await conversation.end();
    expect(outcome.status).toBe('delivered');
    expect(errors[0]).toBeInstanceOf(ValidationError);
    expect((errors[0] as ValidationError).issues.map((issue) => issue.pathText)).toEqual([
      'interactions[0].trace[0].messages[0].content[0].big',
    ]);
    expect(transport.requests).toHaveLength(1);
  });

  it('refuses a conversation without a valid end_user, reporting it once', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: '' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    const outcome = await conversation.end();
    expect(outcome).toMatchObject({ status: 'dropped' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ValidationError);
    expect((errors[0] as ValidationError).issues[0]?.pathText).toBe('end_user');
    expect(transport.requests).toHaveLength(0);
  });

  it('keeps recording when onError itself throws or rejects', async () => {
    const { Recorder } = await import('../../src/recorder/recorder.js');
    const { FakeTransport } = await import('./fake-transport.js');
    const transport = new FakeTransport();
    let calls = 0;
    const recorder = new Recorder({
      http: transport,
      onError: (() => {
        calls += 1;
        if (calls % 2 === 0) return Promise.reject(new Error('async handler failed'));
        throw new Error('handler failed');
      }) as () => void,
    });
    const conversation = recorder.startConversation({ end_user: 'u' });
    const turn = conversation.interaction({ input: 'q' });
    turn.end({ output: 'a' });
    turn.end({ output: 'b' }); // reported: the handler throws
    turn.llm({ model: 'm', messages: [], output: 'x' }); // reported: the handler rejects
    await expect(conversation.end()).resolves.toMatchObject({ status: 'delivered' });
    await settle();
    expect(calls).toBe(2);
    expect(transport.requests).toHaveLength(1);
  });

  it('reports recording after shutdown instead of recording', async () => {
    const { transport, errors, recorder } = setup();
    await recorder.shutdown();
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    await expect(conversation.end()).resolves.toMatchObject({ status: 'dropped' });
    expect(kinds(errors)).toEqual(['recorder_shut_down']);
    expect(transport.requests).toHaveLength(0);
  });
});
