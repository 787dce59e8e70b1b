/**
 * `nebuly.withConversation(target, fn)`: integrations made without a target record into
 * the ambient one, so that one observed client serves every request and user (issue 18, item 8).
 * The first and third tests run the recipe of docs/integrations.md ("The ambient target").
 */
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { currentInteractionId as aiSdkInteractionId, nebulyMiddleware } from 'nebuly-client/ai-sdk';
import { currentInteractionId as langchainInteractionId, NebulyCallbackHandler } from 'nebuly-client/langchain';
import { currentInteractionId, endConversation, observeOpenAI } from 'nebuly-client/openai';
import { openAIChatCompletion } from '../../examples/support/replies.js';
import { answer } from './ai-sdk-fixtures.js';
import { nebulyWithReference } from './nebuly.js';
import { openai, provider, useFakeProvider } from './openai/provider.js';

useFakeProvider();

/** The fake model echoes the last user message, after a pause that lets the users' calls interleave. */
function echoing(): void {
  provider.answer((request) => {
    const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
    return openAIChatCompletion({ model: 'gpt-4o', text: `echo: ${messages.at(-1)?.content ?? ''}` });
  });
}

describe('nebuly.withConversation', () => {
  it('one observed client, two users at once: each conversation holds only its own calls', async () => {
    echoing();
    const { nebuly, sent, errors } = nebulyWithReference();
    const shared = observeOpenAI(openai()); // once per process, no target
    const chat = (user: string) =>
      nebuly.withConversation({ endUser: user, conversationId: `chat-${user}` }, async () => {
        for (const question of [`${user} one`, `${user} two`]) {
          await shared.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: question }] });
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      });
    await Promise.all([chat('alice'), chat('bob')]);
    await endConversation({ nebuly, endUser: 'alice', conversationId: 'chat-alice' });
    await endConversation({ nebuly, endUser: 'bob', conversationId: 'chat-bob' });
    await nebuly.flush();

    expect(errors).toEqual([]);
    const byUser = Object.fromEntries(sent().map((conversation) => [conversation.end_user, conversation.interactions.map((interaction) => interaction.output)]));
    expect(byUser).toEqual({ alice: ['echo: alice one', 'echo: alice two'], bob: ['echo: bob one', 'echo: bob two'] });
  });

  it('outside any withConversation, a client made without a target passes calls through and records nothing', async () => {
    echoing();
    const { nebuly, sent, errors } = nebulyWithReference();
    const completion = await observeOpenAI(openai()).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.message.content).toBe('echo: Hi');
    await nebuly.flush();
    expect(sent()).toEqual([]);
    expect(errors).toEqual([]);
    expect(currentInteractionId()).toBeUndefined();
  });

  it('currentInteractionId(): the id of the interaction being recorded, from every integration entry', async () => {
    echoing();
    const { nebuly } = nebulyWithReference();
    const shared = observeOpenAI(openai());
    const ids = await nebuly.withConversation({ endUser: 'user-1' }, async () => {
      const before = currentInteractionId();
      await shared.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
      const first = currentInteractionId();
      await shared.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Again' }] });
      return { before, first, second: currentInteractionId(), aiSdk: aiSdkInteractionId(), langchain: langchainInteractionId() };
    });
    expect(ids.before).toBeUndefined();
    expect(ids.first).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids.second).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids.second).not.toBe(ids.first);
    expect([ids.aiSdk, ids.langchain]).toEqual([ids.second, ids.second]);

    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Hi' });
    const inTurn = await nebuly.withConversation({ turn }, async () => {
      await shared.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
      return currentInteractionId();
    });
    expect(inTurn).toBe(turn.id);
    await nebuly.shutdown();
  });

  it('the AI SDK middleware and the LangChain handler, made without a target, record into the ambient one', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const model = wrapLanguageModel({
      model: new MockLanguageModelV3({ doGenerate: async () => answer('From the AI SDK.') }),
      middleware: nebulyMiddleware(),
    });
    const handler = new NebulyCallbackHandler();
    const chain = new FakeListChatModel({ responses: ['From LangChain.'] });
    await nebuly.withConversation({ endUser: 'user-1', conversationId: 'chat-1' }, async () => {
      await generateText({ model, prompt: 'Hi AI SDK' });
      await chain.invoke('Hi LangChain', { callbacks: [handler] });
    });
    await endConversation({ nebuly, endUser: 'user-1', conversationId: 'chat-1' });
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions.map((interaction) => [interaction.input, interaction.output])).toEqual([
      ['Hi AI SDK', 'From the AI SDK.'],
      ['Hi LangChain', 'From LangChain.'],
    ]);
  });

  it('a bad target is a TypeError naming the field, before fn runs', () => {
    const { nebuly } = nebulyWithReference();
    let ran = false;
    const run = (target: unknown) => () => nebuly.withConversation(target as never, () => (ran = true));
    expect(run({ end_user: 'u' })).toThrow(/`target.end_user` is not a target field; did you mean `endUser`\?/);
    expect(run({ endUser: '' })).toThrow(/`target.endUser` must not be empty/);
    expect(run({ endUser: 'u', tags: { plan: 1 } })).toThrow(/`target.tags.plan`/);
    expect(run({ turn: {} })).toThrow(/`target.turn` is not a Turn/);
    expect(run(null)).toThrow(/the target is null/);
    expect(ran).toBe(false);
  });
});
