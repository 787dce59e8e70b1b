import { describe, expect, it } from 'vitest';
import { NebulyError } from '../../src/core/errors.js';
import { RecordingError } from '../../src/recorder/errors.js';
import { endConversation } from '../../src/integrations/interactions.js';
import { sessionCount } from '../../src/integrations/sessions.js';
import { beginCall, checkTarget, type NebulyTarget } from '../../src/integrations/target.js';
import { nebulyWithReference } from './nebuly.js';

const LLM = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hi' }], output: 'Hello!' };

describe('checkTarget', () => {
  const { nebuly } = nebulyWithReference();
  const conversation = nebuly.startConversation({ end_user: 'u' });
  const turn = conversation.interaction({ input: 'Hi' });

  it('undefined is the ambient target (nebuly.withConversation)', () => {
    expect(checkTarget(undefined)).toBeUndefined();
  });

  it('checks endUser as startConversation does: whitespace is an end user there, so here too', async () => {
    const { nebuly: client, sent, errors } = nebulyWithReference();
    const target = { nebuly: client, endUser: ' ' };
    expect(checkTarget(target)).toBe(target);
    const call = beginCall(target, { input: 'Hi' });
    call.llm(LLM);
    call.end({ output: 'Hello!' });
    await client.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.end_user).toBe(' ');
  });

  it('accepts the three targets as given', () => {
    const targets: NebulyTarget[] = [{ turn }, { conversation }, { nebuly, endUser: 'u', conversationId: 'c', tags: { a: 'b' } }];
    for (const target of targets) expect(checkTarget(target)).toBe(target);
  });

  it.each([
    [null, /target is null/],
    [{ nebuly, end_user: 'u' }, /`target.end_user` is not a target field; did you mean `endUser`\?/],
    [{ nebuly, endUser: 'u', conversation_id: 'c' }, /did you mean `conversationId`\?/],
    [{ endUser: 'u' }, /`target.nebuly` is not a NebulyClient/],
    [{}, /none of `turn`, `conversation`, `nebuly`/],
    [{ turn: {} }, /`target.turn` is not a Turn/],
    [{ conversation: 'c' }, /`target.conversation` is not a Conversation/],
    [{ nebuly: {}, endUser: 'u' }, /`target.nebuly` is not a NebulyClient/],
    [{ nebuly, endUser: '' }, /`target.endUser`/],
    [{ nebuly, endUser: 'u', conversationId: 3 }, /`target.conversationId`/],
    [{ nebuly, endUser: 'u', tags: { plan: 1 } }, /`target.tags.plan`/],
  ])('names what is wrong in %o', (target, message) => {
    expect(() => checkTarget(target)).toThrow(TypeError);
    expect(() => checkTarget(target)).toThrow(message);
  });
});

describe('{ turn }: steps of the caller’s turn', () => {
  it('keeps call order: a reserved step lands before manual steps recorded meanwhile', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Where is my order?' });
    const call = beginCall({ turn }, { input: 'ignored for a turn' });

    const slot = call.reserve(); // a stream starts…
    turn.retrieval({ source: 'orders', input: 'order 7', outputs: ['shipped'] }); // …the caller records meanwhile
    call.embedding({ model: 'emb', input: 'order 7' });
    slot.llm(LLM); // the stream ends
    call.end({ output: 'ignored' }); // the caller ends the turn, not the call
    expect(turn.ended).toBe(false);
    turn.feedback({ slug: 'thumbs_up' });
    turn.end({ output: 'Shipped.' });
    await conversation.end();

    const [wire] = sent();
    expect(wire?.interactions).toHaveLength(1);
    expect(wire?.interactions[0]).toMatchObject({
      input: 'Where is my order?',
      output: 'Shipped.',
      trace: [{ model: 'gpt-4o', output: 'Hello!' }, { source: 'orders' }, { model: 'emb', input: 'order 7' }],
      feedback_actions: [{ slug: 'thumbs_up' }],
    });
  });

  it('a cancelled slot leaves nothing; a slot filled after the turn ended is still taken', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Hi' });
    const call = beginCall({ turn }, {});
    call.reserve().cancel();
    const late = call.reserve();
    turn.end({ output: 'Hello!' });
    late.llm(LLM);
    late.llm({ ...LLM, output: 'twice' }); // filled once only
    await conversation.end();
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ ...LLM, messages: [{ role: 'user', content: 'Hi' }] }]);
    expect(errors).toEqual([]);
  });

  it('a slot never filled nor cancelled is left out when the conversation is sent, said once', async () => {
    // A framework that never reports a call's end (a stream abandoned unread) leaves its
    // reserved place empty: it must not be sent as an empty, invalid step.
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const first = conversation.interaction({ input: 'Hi' });
    beginCall({ turn: first }, {}).reserve(); // never filled
    first.retrieval({ source: 'kb', input: 'Hi', outputs: ['a passage'] });
    first.end({ output: 'Hello!' });
    const second = conversation.interaction({ input: 'Again' });
    const call = beginCall({ turn: second }, {});
    call.reserve(); // never filled
    call.reserve().llm(LLM);
    second.end({ output: 'Hello again!' });
    expect(await conversation.end()).toMatchObject({ status: 'delivered' });

    expect(sent()[0]?.interactions.map((interaction) => interaction.trace)).toEqual([
      [{ source: 'kb', input: 'Hi', outputs: ['a passage'] }],
      [LLM],
    ]);
    // Said once for each interaction that lost a step.
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toBeInstanceOf(RecordingError);
    expect(errors[0]).toMatchObject({ code: 'step_unfinished', conversationId: conversation.id });
    expect(errors.map((error) => error.message)).toEqual([
      `1 step(s) of interaction ${first.id} of conversation ${conversation.id} never finished (a stream or run whose end was never reported, ` +
        'such as a stream abandoned unread): left out',
      `1 step(s) of interaction ${second.id} of conversation ${conversation.id} never finished (a stream or run whose end was never reported, ` +
        'such as a stream abandoned unread): left out',
    ]);
  });

  it('an invalid step after a slot never filled is still reported at its recorded position', async () => {
    const { nebuly, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Hi' });
    beginCall({ turn }, {}).reserve(); // trace[0], never filled
    turn.retrieval({ source: 'kb', input: 'Hi', outputs: ['a passage'] }); // trace[1]
    turn.retrieval({ source: 7 as never, input: 'Hi', outputs: [] }); // trace[2], invalid
    turn.end({ output: 'Hello!' });
    await conversation.end();
    expect(errors.map((error) => error.message).join('\n')).toMatch(new RegExp(`interaction ${turn.id} .*: trace\\[2\\]\\.source`));
  });

  it('a slot filled after the conversation was sent is reported, not thrown', async () => {
    const { nebuly, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Hi' });
    const slot = beginCall({ turn }, {}).reserve();
    turn.end({ output: 'x' });
    const outcome = conversation.end();
    slot.llm(LLM);
    await outcome;
    expect(errors.map((error) => error.message).join('\n')).toMatch(/llm step finished after conversation .* ended/);
  });
});

describe('{ conversation }: each call a turn of its own', () => {
  it('opens the turn at call start and ends it with the output; concurrent calls never mix', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const first = beginCall({ conversation }, { input: 'first?' });
    const second = beginCall({ conversation }, { input: 'second?' });
    second.llm({ ...LLM, output: 'two' });
    first.llm({ ...LLM, output: 'one' });
    second.end({ output: 'two' });
    first.end({ input: 'first, reworded?', output: 'one' });
    first.end({ output: 'again' }); // idempotent
    await conversation.end();

    const interactions = sent()[0]?.interactions ?? [];
    expect(interactions.map(({ input, output }) => ({ input, output }))).toEqual([
      { input: 'first, reworded?', output: 'one' },
      { input: 'second?', output: 'two' },
    ]);
    expect(interactions[0]?.trace).toMatchObject([{ output: 'one' }]);
    expect(interactions[1]?.trace).toMatchObject([{ output: 'two' }]);
  });
});

describe('standalone { nebuly, endUser, conversationId?, tags? }', () => {
  it('without a conversationId: each call is a conversation of its own, sent when it ends', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const alice = beginCall({ nebuly, endUser: 'alice', tags: { plan: 'pro' } }, { input: 'A?' });
    const bob = beginCall({ nebuly, endUser: 'bob' }, { input: 'B?' });
    bob.llm({ ...LLM, output: 'b' });
    alice.llm({ ...LLM, output: 'a' });
    alice.end({ output: 'a' });
    bob.end({ output: 'b' });
    await nebuly.flush();

    const byUser = Object.fromEntries(sent().map((conversation) => [conversation.end_user, conversation.interactions]));
    expect(byUser.alice).toMatchObject([{ input: 'A?', output: 'a', tags: { plan: 'pro' }, trace: [{ output: 'a' }] }]);
    expect(byUser.bob).toMatchObject([{ input: 'B?', output: 'b', trace: [{ output: 'b' }] }]);
    expect(byUser.bob?.[0]).not.toHaveProperty('tags');
  });

  it('with a conversationId: one conversation per user and id, ended by endConversation', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const alice = { nebuly, endUser: 'alice', conversationId: 'chat-1' };
    const bob = { nebuly, endUser: 'bob', conversationId: 'chat-1' }; // same id, other user
    for (const [target, input] of [[alice, 'a1'], [bob, 'b1'], [alice, 'a2']] as const) {
      const call = beginCall(target, { input });
      call.llm({ ...LLM, output: input.toUpperCase() });
      call.end({ output: input.toUpperCase() });
    }
    expect(sent()).toEqual([]); // nothing sent before the conversation ends
    expect(await endConversation(alice)).toMatchObject({ status: 'delivered', conversationId: 'chat-1' });
    expect(await endConversation(alice)).toBeUndefined();
    expect(sent().map((c) => [c.end_user, c.interactions.map((i) => i.input)])).toEqual([['alice', ['a1', 'a2']]]);

    // A call after the end starts the conversation again.
    const again = beginCall(alice, { input: 'a3' });
    again.end({ output: 'A3' });
    await nebuly.shutdown();
    const conversations = sent().map((c) => [c.end_user, c.interactions.map((i) => i.input)]);
    expect(conversations[0]).toEqual(['alice', ['a1', 'a2']]);
    // The two that shutdown() ended go in either order.
    expect(conversations.slice(1)).toHaveLength(2);
    expect(conversations.slice(1)).toEqual(expect.arrayContaining([['bob', ['b1']], ['alice', ['a3']]]));
  });
});

describe('standalone sessions stay bounded', () => {
  it('forgets conversations that ended on their own (shutdown, idle) as new sessions start', async () => {
    const { nebuly } = nebulyWithReference();
    const ended: ReturnType<typeof nebuly.conversation>[] = [];
    const spy = nebuly.conversation.bind(nebuly);
    nebuly.conversation = (params) => {
      const conversation = spy(params);
      ended.push(conversation);
      return conversation;
    };
    for (let n = 0; n < 64; n += 1) beginCall({ nebuly, endUser: 'u', conversationId: `chat-${n}` }, { input: 'Hi' }).end({ output: 'x' });
    expect(sessionCount(nebuly)).toBe(64);
    await Promise.all(ended.map((conversation) => conversation.end())); // as the idle time-out would
    // The 65th session sweeps the 64 ended ones.
    beginCall({ nebuly, endUser: 'u', conversationId: 'chat-64' }, { input: 'Hi' }).end({ output: 'x' });
    expect(sessionCount(nebuly)).toBe(1);
    expect(await endConversation({ nebuly, endUser: 'u', conversationId: 'chat-0' })).toBeUndefined();
    expect(await endConversation({ nebuly, endUser: 'u', conversationId: 'chat-64' })).toMatchObject({ status: 'delivered' });
  });
});

describe('faults', () => {
  it('go to onError as a NebulyError with the cause, never thrown', async () => {
    const { nebuly, errors } = nebulyWithReference();
    const call = beginCall({ nebuly, endUser: 'u' }, { input: 'Hi' });
    const bug = new Error('cannot read the chunk');
    expect(() => call.fault(bug, 'reading a stream chunk')).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(NebulyError);
    expect(errors[0]?.message).toBe(
      'nebuly-client integration: reading a stream chunk: cannot read the chunk (the observed call itself was not affected)',
    );
    expect(errors[0]?.cause).toBe(bug);
  });

  it('guard runs an integration’s recording code: what it throws is a fault with its context', () => {
    const { nebuly, errors } = nebulyWithReference();
    const call = beginCall({ nebuly, endUser: 'u' }, { input: 'Hi' });
    let ran = false;
    call.guard('recording a step', () => {
      ran = true;
    });
    expect(ran).toBe(true);
    expect(() =>
      call.guard('reading a stream chunk', () => {
        throw new Error('unexpected chunk');
      }),
    ).not.toThrow();
    expect(errors.map((error) => error.message)).toEqual([
      'nebuly-client integration: reading a stream chunk: unexpected chunk (the observed call itself was not affected)',
    ]);
  });

  it('a step whose getters throw is reported, not thrown, and the rest of the turn is sent', async () => {
    const { nebuly, errors, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'u' });
    const call = beginCall({ conversation }, { input: 'Hi' });
    const hostile = {
      get model(): string {
        throw new Error('boom');
      },
    };
    expect(() => call.llm(hostile as never)).not.toThrow();
    expect(() => call.reserve().llm(hostile as never)).not.toThrow();
    call.retrieval({ source: 'kb', input: 'Hi', outputs: ['a passage'] });
    call.end({ output: 'Hello!' });
    expect(await conversation.end()).toMatchObject({ status: 'delivered' });
    // The recorder reads each field once, safely: the unreadable model is reported by path
    // when the conversation is validated, and only the two steps holding it are left out.
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/: trace\[0\]\.model must be a string \(got a value that could not be read\)/),
    ]);
    expect(sent()[0]?.interactions[0]).toMatchObject({ input: 'Hi', output: 'Hello!', trace: [{ source: 'kb' }] });
  });
});
