import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { RecordingError } from '../../src/recorder/errors.js';
import type { LLMStepInput } from '../../src/schemas/index.js';
import { kinds, settle, setup } from './setup.js';

describe('recording with misuse and invalid data', () => {
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
      'trace[1].messages[0].role',
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
    // One report per interaction left out in part or whole.
    const paths = errors.flatMap((error) => (error as ValidationError).issues.map((issue) => issue.pathText));
    expect(paths).toContain('input');
    expect(paths).toContain('tags');
  });

  it('refuses a tag named __proto__ by name, keeping the interaction and its other tags', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u' });
    const tags = JSON.parse('{"__proto__": "x", "plan": "pro"}') as Record<string, string>;
    conversation.interaction({ input: 'q', tags }).end({ output: 'a' });
    await conversation.end();

    expect(transport.bodies[0]).toMatchObject({ conversation: { interactions: [{ input: 'q', output: 'a' }] } });
    const paths = errors.flatMap((error) => (error as ValidationError).issues.map((issue) => issue.pathText));
    expect(paths).toEqual(['tags.__proto__']);
    expect((errors[0] as ValidationError).message).toMatch(/__proto__/);
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
      'trace[0].messages[0].content[0].big',
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
