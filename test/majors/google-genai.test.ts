/**
 * @google/genai 3 (Node 22+) through `observeGoogleGenAI`: generateContent, the streamed
 * call, and a chat whose function call continues its interaction, the real client against
 * a fake Gemini API on loopback.
 */
import { ApiError, GoogleGenAI } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { observeGoogleGenAI } from 'nebuly-client/google-genai';
import { geminiChunks, geminiResponse } from '../../examples/support/gemini-replies.js';
import { collect, provider, useFakeProvider } from '../helpers/fake-provider.js';
import { nebulyWithReference } from './nebuly.js';

useFakeProvider({ status: 500, json: { error: { code: 500, message: 'not scripted', status: 'INTERNAL' } } });

const genai = () => new GoogleGenAI({ apiKey: 'gemini-fake-key', httpOptions: { baseUrl: provider.url } });
const ANSWER = { model: 'gemini-test-001', text: 'Order 7 shipped.', inputTokens: 25, outputTokens: 6 };
const PARAMS = { model: 'gemini-test', contents: 'Where is order 7?', config: { systemInstruction: 'You are a shop assistant.' } };
const STEP = {
  model: 'gemini-test-001',
  messages: [
    { role: 'system', content: 'You are a shop assistant.' },
    { role: 'user', content: 'Where is order 7?' },
  ],
  output: 'Order 7 shipped.',
  input_tokens: 25,
  output_tokens: 6,
};

it('runs on @google/genai 3, on Node 22 or later', async () => {
  provider.answer(() => geminiResponse(ANSWER));
  await genai().models.generateContent(PARAMS);
  expect(provider.requests[0]?.headers['user-agent']).toMatch(/google-genai-sdk\/3\./);
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
});

describe('observeGoogleGenAI on @google/genai 3', () => {
  it('models.generateContent: one interaction with its LLM step; the caller gets the SDK’s result', async () => {
    provider.answer(() => geminiResponse(ANSWER));
    const { nebuly, sent, errors, info } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const response = await observeGoogleGenAI(genai(), { conversation }).models.generateContent(PARAMS);
    expect(response.text).toBe('Order 7 shipped.');
    await conversation.end();
    expect(errors).toEqual([]);
    expect(info.filter((line) => line.includes('not tested'))).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Where is order 7?', output: 'Order 7 shipped.', trace: [STEP] }]);
  });

  it('models.generateContentStream: chunks pass through; the step is the whole answer', async () => {
    provider.answer(() => ({ events: geminiChunks(ANSWER, { pieces: ['Order 7 ', 'shipped.'] }) }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const chunks = await collect(await observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' }).models.generateContentStream(PARAMS));
    expect(chunks.map((chunk) => chunk.text)).toEqual(['Order 7 ', 'shipped.']);
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ output: 'Order 7 shipped.', trace: [STEP] }]);
  });

  it('a chat: the function response continues the interaction, recorded as a retrieval step', async () => {
    provider.answer((_request, index) =>
      index === 0 ? geminiResponse({ model: 'gemini-test-001', toolCalls: [{ name: 'get_order', arguments: { id: 7 } }] }) : geminiResponse(ANSWER),
    );
    const { nebuly, sent, errors } = nebulyWithReference();
    const chat = observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' }).chats.create({ model: 'gemini-test' });
    const first = await chat.sendMessage({ message: 'Where is order 7?' });
    expect(first.functionCalls).toEqual([{ name: 'get_order', args: { id: 7 } }]);
    await chat.sendMessage({ message: [{ functionResponse: { name: 'get_order', response: { result: 'shipped' } } }] });
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([
      {
        input: 'Where is order 7?',
        output: 'Order 7 shipped.',
        trace: [{ output: 'get_order({"id":7})' }, { source: 'get_order', input: '{"id":7}', outputs: ['{"result":"shipped"}'] }, { output: 'Order 7 shipped.' }],
      },
    ]);
  });

  it('a provider error reaches the caller as the SDK’s ApiError; the step says so', async () => {
    provider.answer(() => ({ status: 429, json: { error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } } }));
    const { nebuly, sent } = nebulyWithReference();
    await expect(observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' }).models.generateContent(PARAMS)).rejects.toBeInstanceOf(ApiError);
    await nebuly.flush();
    expect(sent()[0]?.interactions).toMatchObject([{ output: '[nebuly: call failed (429 ApiError)]' }]);
  });
});
