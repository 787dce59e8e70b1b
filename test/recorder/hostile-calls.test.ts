import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { setup } from './setup.js';

const revocable = Proxy.revocable({}, {});
revocable.revoke();
const revoked = revocable.proxy as never;

/** An object whose `key` getter throws, beside the given fields. */
function throwingAt<T extends object>(fields: T, key: string): T {
  return Object.defineProperty({ ...fields }, key, {
    enumerable: true,
    get() {
      throw new Error('getter exploded');
    },
  });
}

function paths(error: unknown): string[] {
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues.map((issue) => issue.pathText);
}

describe('recorder calls given values that throw when read', () => {
  it('startConversation: a throwing end_user getter or a revoked Proxy is reported, not thrown', () => {
    const { errors, recorder } = setup();
    expect(() => recorder.startConversation(throwingAt({ end_user: 'u' }, 'end_user'))).not.toThrow();
    expect(() => recorder.startConversation(revoked)).not.toThrow();
    expect(paths(errors[0])).toEqual(['end_user']);
    expect((errors[0] as ValidationError).message).toContain('end_user must be a string (got a value that could not be read)');
    expect(paths(errors[1])).toEqual(['end_user', 'tags', 'conversation_id']);
  });

  it('tags that throw are left out, and the conversation is still sent', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u', tags: throwingAt({ app: 'web' }, 'plan') });
    conversation.interaction({ input: 'q', tags: revoked }).end({ output: 'a' });
    expect(await conversation.end()).toMatchObject({ status: 'delivered' });
    expect(paths(errors[0])).toEqual(['tags']);
    expect(paths(errors[1])).toEqual(['tags']);
    expect(transport.bodies).toEqual([
      { conversation: { end_user: 'u', interactions: [expect.objectContaining({ input: 'q', output: 'a' })] } },
    ]);
  });

  it('every turn call takes getters that throw and revoked Proxies, leaving out only that step', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u' });
    const turn = conversation.interaction(throwingAt({ input: 'q' }, 'tags'));
    const calls = [
      () => turn.llm(throwingAt({ model: 'm', messages: [], output: 'o' }, 'messages')),
      () => turn.llm({ model: 'm', messages: revoked, output: 'o' }),
      () => turn.llm({ model: 'm', messages: [revoked, throwingAt({ role: 'user' as const, content: '' }, 'content')], output: 'o' }),
      () => turn.llm({ model: 'm', messages: [{ role: 'user', content: [throwingAt({ type: 'text' }, 'text')] }], output: 'o' }),
      () => turn.llm({ model: 'm', messages: [{ role: 'user', content: revoked }], output: 'o' }),
      () => turn.retrieval({ source: 's', input: 'q', outputs: revoked }),
      () => turn.retrieval(revoked),
      () => turn.embedding(throwingAt({ model: 'e', input: 'x' }, 'input_tokens')),
      () => turn.embedding({ model: 'e', input: 'fine' }),
      () => turn.feedback(revoked),
      () => turn.feedback({ slug: 'thumbs_up' }),
      () => turn.end({ output: 'a' }),
    ];
    for (const call of calls) expect(call).not.toThrow();
    expect(await conversation.end()).toMatchObject({ status: 'delivered' });

    const reported = errors.flatMap((error) => (error instanceof ValidationError ? paths(error) : []));
    expect(reported).toEqual(
      expect.arrayContaining([
        'trace[0].messages',
        'trace[2].messages[0].role',
        'trace[2].messages[1].content',
        'trace[1].messages',
        'trace[3].messages[0].content[0].text',
        'trace[4].messages[0].content',
        'trace[5].outputs',
        'trace[7].input_tokens',
        'feedback_actions[0].slug',
      ]),
    );
    for (const error of errors) expect(error.message).not.toContain('getter exploded');
    // What was valid is sent: the embedding step and the thumbs up.
    const [body] = transport.bodies as { conversation: { interactions: { trace: unknown[]; feedback_actions: unknown[] }[] } }[];
    expect(body?.conversation.interactions[0]?.trace).toEqual([{ model: 'e', input: 'fine' }]);
    expect(body?.conversation.interactions[0]?.feedback_actions).toEqual([{ slug: 'thumbs_up' }]);
  });

  it('a revoked Proxy as a field value, which zod itself reads, leaves out only its step', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u', conversation_id: revoked });
    const turn = conversation.interaction({ input: 'q' });
    turn.llm({ model: revoked, messages: [], output: 'o' });
    turn.embedding({ model: 'e', input: revoked });
    turn.retrieval({ source: 's', input: 'q', outputs: ['kept'] });
    turn.end({ output: 'a' });
    expect(await conversation.end()).toMatchObject({ status: 'delivered' });

    expect(paths(errors[0])).toEqual(['conversation_id']);
    expect(paths(errors[1])).toEqual(expect.arrayContaining(['trace[0].model', 'trace[1].input']));
    const [body] = transport.bodies as { conversation: { interactions: { trace: unknown[] }[] } }[];
    expect(body?.conversation.interactions[0]?.trace).toEqual([{ source: 's', input: 'q', outputs: ['kept'] }]);
  });

  it('shutdown(null), or options whose getter throws, shuts down with the default deadline', async () => {
    const { transport, recorder } = setup();
    recorder.startConversation({ end_user: 'u' }).interaction({ input: 'q' }).end({ output: 'a' });
    await expect(recorder.shutdown(null as never)).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
    await expect(recorder.shutdown(throwingAt({ timeoutMs: 5 }, 'timeoutMs'))).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
    expect(transport.requests).toHaveLength(1);
  });
});
