import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIChatChunks, openAIChatCompletion } from '../../../examples/support/replies.js';
import { nebulyWithReference } from '../nebuly.js';
import { ANSWER, collect, MESSAGES, openai, provider, useFakeProvider } from './provider.js';

useFakeProvider();

describe('targets', () => {
  it('two users at once, streams interleaved: each conversation holds only its own call', async () => {
    provider.answer((request) => {
      const question = (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
      return { events: openAIChatChunks({ model: 'gpt-4o', text: `answer to ${question}` }, { pieces: ['answer ', 'to ', question] }) };
    });
    const { nebuly, sent } = nebulyWithReference();
    const alice = observeOpenAI(openai(), { nebuly, endUser: 'alice' });
    const bob = observeOpenAI(openai(), { nebuly, endUser: 'bob' });
    const ask = async (client: OpenAI, question: string) => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: question }], stream: true });
      let text = '';
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        await new Promise((resolve) => setImmediate(resolve)); // let the other stream run
      }
      return text;
    };
    expect(await Promise.all([ask(alice, 'A?'), ask(bob, 'B?')])).toEqual(['answer to A?', 'answer to B?']);
    await nebuly.flush();
    const byUser = Object.fromEntries(sent().map((c) => [c.end_user, c.interactions.map((i) => [i.input, i.output])]));
    expect(byUser).toEqual({ alice: [['A?', 'answer to A?']], bob: [['B?', 'answer to B?']] });
  });

  it('{ turn }: a streamed step and manual steps keep call order', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER) }));
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Where is order 7?' });
    const observed = observeOpenAI(openai(), { turn });
    const stream = await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true });
    turn.retrieval({ source: 'orders', input: 'order 7', outputs: ['shipped'] }); // while the answer streams
    await collect(stream);
    turn.end({ output: 'Order 7 shipped.' });
    await conversation.end();
    expect(sent()[0]?.interactions[0]?.trace).toMatchObject([{ output: 'Order 7 shipped.' }, { source: 'orders' }]);
  });

  it('withOptions() gives a client observed the same way', async () => {
    provider.answer(() => openAIChatCompletion(ANSWER));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }).withOptions({ timeout: 5_000 });
    await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
  });

  it('a bad target is refused at once, naming the field', () => {
    expect(() => observeOpenAI(openai(), { nebuly: {} } as never)).toThrow(/`target.nebuly` is not a NebulyClient/);
  });
});
