/**
 * LangChain.js with its newest OpenAI package (@langchain/openai 1.6, on openai 7; Node
 * 22+) recorded by NebulyCallbackHandler: the real `ChatOpenAI` against a fake OpenAI
 * server on loopback, plain, streamed, and in a tool loop (`bindTools`).
 */
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { RunnableLambda, type RunnableConfig } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NebulyCallbackHandler } from 'nebuly-client/langchain';
import { openAIChatChunks, openAIChatCompletion, type FakeAnswer } from '../../examples/support/replies.js';
import { collect, provider, useFakeProvider } from '../helpers/fake-provider.js';
import { nebulyWithReference } from './nebuly.js';

useFakeProvider();

// Not `streaming: true`: ChatOpenAI then estimates the tokens of its streamed `invoke`
// with js-tiktoken, which downloads its encodings, and this test runs offline.
const chatOpenAI = () => new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-fake-key', configuration: { baseURL: `${provider.url}/v1` }, maxRetries: 0 });

const SYSTEM = 'You are a shop assistant.';
const QUESTION = 'Where is order 7?';
const ANSWER: FakeAnswer = { model: 'gpt-4o-mini-2024-07-18', text: 'Order 7 shipped.', inputTokens: 21, outputTokens: 5 };
const STEP = {
  model: 'gpt-4o-mini-2024-07-18',
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: QUESTION },
  ],
  output: 'Order 7 shipped.',
  input_tokens: 21,
  output_tokens: 5,
};

/** The chat completions the provider received: each request's messages, as LangChain sent them. */
const requestedMessages = () => provider.requests.map((request) => (request.body as { messages: unknown[] }).messages);

const getOrder = tool(async ({ orderId }: { orderId: string }) => `order ${orderId}: shipped`, {
  name: 'get_order',
  description: 'Looks an order up by its number',
  schema: z.object({ orderId: z.string() }),
});

/** A tool loop as LangChain's docs write one: the model with the tool bound, until it stops asking. */
const agent = RunnableLambda.from(async (question: string, config?: RunnableConfig) => {
  const model = chatOpenAI().bindTools([getOrder]);
  const messages: BaseMessage[] = [new SystemMessage(SYSTEM), new HumanMessage(question)];
  for (;;) {
    const answer = await model.invoke(messages, config);
    messages.push(answer);
    if ((answer.tool_calls ?? []).length === 0) return answer.content;
    for (const call of answer.tool_calls ?? []) messages.push(await getOrder.invoke({ ...call, type: 'tool_call' }, config));
  }
}).withConfig({ runName: 'support-agent' });

it('runs @langchain/openai 1.6 on @langchain/core 1 (one copy: the handler’s), on Node 22 or later', () => {
  // Each LangChain model lists the packages it was built from in its metadata.
  expect(chatOpenAI().metadata?.versions).toMatchObject({ '@langchain/core': expect.stringMatching(/^1\./), '@langchain/openai': expect.stringMatching(/^1\.6\./) });
  expect(new NebulyCallbackHandler()).toBeInstanceOf(BaseCallbackHandler);
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
});

describe('NebulyCallbackHandler with ChatOpenAI (@langchain/openai 1.6)', () => {
  it('invoke: one interaction per user message; each an LLM step with the model that answered and its tokens', async () => {
    provider.answer(() => openAIChatCompletion(ANSWER));
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const handler = new NebulyCallbackHandler({ conversation });

    const first = await chatOpenAI().invoke([new SystemMessage(SYSTEM), new HumanMessage(QUESTION)], { callbacks: [handler] });
    const second = await chatOpenAI().invoke([new SystemMessage(SYSTEM), new HumanMessage('And order 8?')], { callbacks: [handler] });
    await conversation.end();

    expect([first.content, second.content]).toEqual(['Order 7 shipped.', 'Order 7 shipped.']);
    expect(requestedMessages()[0]).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ]);
    expect(errors).toEqual([]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({ input: QUESTION, output: 'Order 7 shipped.', trace: [STEP] }),
      expect.objectContaining({
        input: 'And order 8?',
        output: 'Order 7 shipped.',
        trace: [{ ...STEP, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'And order 8?' }] }],
      }),
    ]);
    expect(JSON.stringify(sent())).not.toContain('sk-fake-key');
  });

  it('stream: the chunks reach the caller as they come; the step has the whole text and the usage ChatOpenAI asks for', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER, { pieces: ['Order 7 ', 'shipped.'], withUsage: true }) }));
    const { nebuly, sent, errors, info } = nebulyWithReference();

    const chunks = await collect(await chatOpenAI().stream([new SystemMessage(SYSTEM), new HumanMessage(QUESTION)], { callbacks: [new NebulyCallbackHandler({ nebuly, endUser: 'user-1' })] }));
    await nebuly.flush();

    expect(chunks.map((chunk) => chunk.content).filter((text) => text !== '')).toEqual(['Order 7 ', 'shipped.']);
    // @langchain/core 1, read from the model's metadata: a tested major, nothing said.
    expect(info.filter((line) => line.includes('not tested with'))).toEqual([]);
    expect((provider.requests[0]?.body as { stream_options?: unknown }).stream_options).toEqual({ include_usage: true });
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toEqual([expect.objectContaining({ input: QUESTION, output: 'Order 7 shipped.', trace: [STEP] })]);
  });

  it('invoke under a handler that prefers streaming (LangGraph’s messages mode): streamed, recorded once with its usage', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER, { pieces: ['Order 7 ', 'shipped.'], withUsage: true }) }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const tokens: string[] = [];
    const messagesMode = Object.assign(BaseCallbackHandler.fromMethods({ handleLLMNewToken: (token: string) => void tokens.push(token) }), {
      lc_prefer_streaming: true,
    });

    const answer = await chatOpenAI().invoke([new SystemMessage(SYSTEM), new HumanMessage(QUESTION)], {
      callbacks: [messagesMode, new NebulyCallbackHandler({ nebuly, endUser: 'user-1' })],
    });
    await nebuly.flush();

    expect(answer.content).toBe('Order 7 shipped.');
    expect(tokens.join('')).toBe('Order 7 shipped.');
    expect((provider.requests[0]?.body as { stream?: boolean }).stream).toBe(true);
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toEqual([expect.objectContaining({ output: 'Order 7 shipped.', trace: [STEP] })]);
  });

  it('a tool loop with bindTools: one interaction; LLM step, the tool run as a retrieval step, LLM step', async () => {
    const asking: FakeAnswer = { model: 'gpt-4o-mini-2024-07-18', toolCalls: [{ name: 'get_order', arguments: { orderId: '7' } }], inputTokens: 40, outputTokens: 12 };
    const answering: FakeAnswer = { model: 'gpt-4o-mini-2024-07-18', text: 'Order 7 has shipped.', inputTokens: 60, outputTokens: 8 };
    provider.answer((_request, index) => openAIChatCompletion(index === 0 ? asking : answering));
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });

    const answer = await agent.invoke(QUESTION, { callbacks: [new NebulyCallbackHandler({ conversation })] });
    await conversation.end();

    expect(answer).toBe('Order 7 has shipped.');
    // What ChatOpenAI sent: the tool's definition, then its result with the call's id.
    expect((provider.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map((bound) => bound.function.name)).toEqual(['get_order']);
    expect(requestedMessages()[1]?.at(-1)).toMatchObject({ role: 'tool', content: 'order 7: shipped', tool_call_id: 'call_0' });
    expect(errors).toEqual([]);
    const system = { role: 'system', content: SYSTEM };
    const user = { role: 'user', content: QUESTION };
    const asked = 'get_order({"orderId":"7"})';
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: QUESTION,
        output: 'Order 7 has shipped.',
        trace: [
          { model: 'gpt-4o-mini-2024-07-18', messages: [system, user], output: asked, input_tokens: 40, output_tokens: 12 },
          { source: 'get_order', input: '{"orderId":"7"}', outputs: ['order 7: shipped'] },
          {
            model: 'gpt-4o-mini-2024-07-18',
            messages: [system, user, { role: 'assistant', content: asked }, { role: 'tool', content: 'order 7: shipped' }],
            output: 'Order 7 has shipped.',
            input_tokens: 60,
            output_tokens: 8,
          },
        ],
      }),
    ]);
  });

  it('a provider error: the caller gets it; the step says the call failed', async () => {
    provider.answer(() => ({ status: 400, json: { error: { message: 'bad request', type: 'invalid_request_error' } } }));
    const { nebuly, sent } = nebulyWithReference();

    await expect(chatOpenAI().invoke(QUESTION, { callbacks: [new NebulyCallbackHandler({ nebuly, endUser: 'user-1' })] })).rejects.toThrow(/bad request/);
    await nebuly.flush();

    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({ input: QUESTION, trace: [expect.objectContaining({ model: 'gpt-4o-mini', output: expect.stringContaining('[nebuly: call failed') })] }),
    ]);
  });
});
