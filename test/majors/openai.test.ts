/**
 * openai 7 (Node 22+) through `observeOpenAI`: chat, streamed chat, Responses (plain and
 * streamed) and embeddings, the real client against a fake OpenAI server on loopback.
 */
import OpenAI from 'openai';
import { VERSION } from 'openai/version';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIChatChunks, openAIChatCompletion, openAIResponse } from '../../examples/support/replies.js';
import { collect, provider, useFakeProvider } from '../helpers/fake-provider.js';
import { nebulyWithReference } from './nebuly.js';

useFakeProvider();

const openai = () => new OpenAI({ apiKey: 'sk-fake-key', baseURL: `${provider.url}/v1`, maxRetries: 0 });
const ANSWER = { model: 'gpt-4o-mini-2024-07-18', text: 'Order 7 shipped.', inputTokens: 21, outputTokens: 5 };
const MESSAGES = [
  { role: 'system' as const, content: 'You are a shop assistant.' },
  { role: 'user' as const, content: 'Where is order 7?' },
];
const STEP = {
  model: 'gpt-4o-mini-2024-07-18',
  messages: MESSAGES,
  output: 'Order 7 shipped.',
  input_tokens: 21,
  output_tokens: 5,
};

it('runs on openai 7, on Node 22 or later', () => {
  expect(VERSION).toMatch(/^7\./);
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
});

describe('observeOpenAI on openai 7', () => {
  it('chat.completions.create: one interaction with its LLM step; the caller gets the SDK’s result', async () => {
    provider.answer(() => openAIChatCompletion(ANSWER));
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const completion = await observeOpenAI(openai(), { conversation }).chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    expect(completion.choices[0]?.message.content).toBe('Order 7 shipped.');
    await conversation.end();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Where is order 7?', output: 'Order 7 shipped.', trace: [STEP] }]);
    expect(JSON.stringify(sent())).not.toContain('sk-fake-key');
  });

  it('a streamed chat completion: the chunks pass through; the step has the text and the usage', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER, { pieces: ['Order 7 ', 'shipped.'], withUsage: true }) }));
    const { nebuly, sent, errors, info } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const chunks = await collect(
      await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true, stream_options: { include_usage: true } }),
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Order 7 shipped.');
    // openai 7, read from the client's user agent: a tested major, nothing said.
    expect(info.filter((line) => line.includes('not tested with'))).toEqual([]);
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Where is order 7?', output: 'Order 7 shipped.', trace: [STEP] }]);
  });

  const response = openAIResponse({ model: 'gpt-4.1-2025-04-14', text: 'Shipped.', inputTokens: 30, outputTokens: 9 });
  const responseStep = {
    model: 'gpt-4.1-2025-04-14',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Where is order 7?' },
    ],
    output: 'Shipped.',
    input_tokens: 30,
    output_tokens: 9,
  };

  it('responses.create: the instructions, the input, the output text and the usage', async () => {
    provider.answer(() => ({ json: response }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const result = await observed.responses.create({ model: 'gpt-4.1', instructions: 'Be brief.', input: 'Where is order 7?' });
    expect(result.output_text).toBe('Shipped.');
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Where is order 7?', output: 'Shipped.', trace: [responseStep] }]);
  });

  it('a streamed response: the events pass through; the step comes from response.completed', async () => {
    const events = [
      { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } } },
      { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Shipped.', logprobs: [] } },
      { event: 'response.completed', data: { type: 'response.completed', sequence_number: 2, response } },
    ];
    provider.answer(() => ({ events }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const received = await collect(await observed.responses.create({ model: 'gpt-4.1', instructions: 'Be brief.', input: 'Where is order 7?', stream: true }));
    expect(received.map((event) => event.type)).toEqual(events.map((event) => event.event));
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ output: 'Shipped.', trace: [responseStep] }]);
  });

  it('embeddings.create: one embedding step with every input and the token count', async () => {
    provider.answer(() => ({
      json: {
        object: 'list',
        model: 'text-embedding-3-small',
        data: [{ object: 'embedding', index: 0, embedding: Buffer.from(new Float32Array([0.5, -1]).buffer).toString('base64') }],
        usage: { prompt_tokens: 3, total_tokens: 3 },
      },
    }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Find order 7' });
    const result = await observeOpenAI(openai(), { turn }).embeddings.create({ model: 'text-embedding-3-small', input: 'order 7' });
    expect(result.data[0]?.embedding).toEqual([0.5, -1]);
    turn.end({ output: 'Found.' });
    await conversation.end();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ model: 'text-embedding-3-small', input: 'order 7', input_tokens: 3 }]);
  });
});
