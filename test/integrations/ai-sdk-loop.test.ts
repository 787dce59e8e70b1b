/**
 * The AI SDK's tool loops, stops and serverless recipe, with the real `ai` and its mock
 * models (issue 18, items 1, 3, 4 and 6).
 */
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { endConversation, nebulyMiddleware, nebulyTelemetry } from 'nebuly-client/ai-sdk';
import { answer, getOrder, mockModel, stream, streamedAnswer, streamedToolCall, usage } from './ai-sdk-fixtures.js';
import { nebulyWithReference } from './nebuly.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** One answer that asks for two tools at once. */
function twoToolCalls(): GenerateResult {
  return {
    content: [
      { type: 'tool-call', toolCallId: 'call-a', toolName: 'getOrder', input: '{"orderId":"42"}' },
      { type: 'tool-call', toolCallId: 'call-b', toolName: 'getOrder', input: '{"orderId":"43"}' },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: usage(20, 8),
    warnings: [],
    response: { modelId: 'gpt-4o-2024-08-06' },
  };
}

const RESULT_42 = '{"orderId":"42","status":"shipped","eta":"2026-11-25"}';
const RESULT_43 = '{"orderId":"43","status":"shipped","eta":"2026-11-25"}';

describe('tool loops', () => {
  it('middleware alone: a multi-step run is one interaction; the tool runs, read from the next prompt, are retrieval steps', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const model = wrapLanguageModel({
      model: mockModel({ generate: [twoToolCalls(), answer('Both shipped.')] }),
      middleware: nebulyMiddleware({ nebuly, endUser: 'user-1' }),
    });
    const { text } = await generateText({ model, prompt: 'Where are orders 42 and 43?', tools: { getOrder }, stopWhen: stepCountIs(3) });
    await nebuly.flush();

    expect(text).toBe('Both shipped.');
    expect(errors).toEqual([]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: 'Where are orders 42 and 43?',
        output: 'Both shipped.',
        trace: [
          expect.objectContaining({ output: 'getOrder({"orderId":"42"})\ngetOrder({"orderId":"43"})' }),
          { source: 'getOrder', input: '{"orderId":"42"}', outputs: [RESULT_42] },
          { source: 'getOrder', input: '{"orderId":"43"}', outputs: [RESULT_43] },
          expect.objectContaining({
            output: 'Both shipped.',
            // One tool message per result, as the provider received them.
            messages: [
              { role: 'user', content: 'Where are orders 42 and 43?' },
              { role: 'assistant', content: 'getOrder({"orderId":"42"})\ngetOrder({"orderId":"43"})' },
              { role: 'tool', content: RESULT_42 },
              { role: 'tool', content: RESULT_43 },
            ],
          }),
        ],
      }),
    ]);
  });

  it('telemetry: parallel tool results are one tool message each in the next step', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    await generateText({
      model: mockModel({ generate: [twoToolCalls(), answer('Both shipped.')] }),
      prompt: 'Where are orders 42 and 43?',
      tools: { getOrder },
      stopWhen: stepCountIs(3),
      experimental_telemetry: { isEnabled: false, integrations: [nebulyTelemetry({ conversation })] },
    });
    await conversation.end();
    expect(errors).toEqual([]);
    const trace = sent()[0]?.interactions[0]?.trace as { messages?: unknown[] }[];
    expect(trace.at(-1)?.messages?.slice(-2)).toEqual([
      { role: 'tool', content: RESULT_42 },
      { role: 'tool', content: RESULT_43 },
    ]);
  });
});

describe('a stop through abortSignal', () => {
  it('is recorded as aborted, with the text so far, not as a failed stream', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const stop = new AbortController();
    // A provider stream as fetch gives it: it errors with the signal's AbortError when the call is stopped.
    const model = new MockLanguageModelV3({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't1' });
            controller.enqueue({ type: 'text-delta', id: 't1', delta: 'Order 42 ' });
            abortSignal?.addEventListener('abort', () => controller.error(abortSignal.reason));
          },
        }),
      }),
    });
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: nebulyMiddleware({ nebuly, endUser: 'user-1' }) }),
      prompt: 'Where is my order 42?',
      abortSignal: stop.signal,
      onError: () => {},
    });
    for await (const delta of result.textStream) {
      if (delta !== '') stop.abort();
    }
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'Order 42 \n[nebuly: stream aborted, output incomplete]',
      trace: [{ output: 'Order 42 \n[nebuly: stream aborted, output incomplete]' }],
    });
  });
});

describe('serverless, with nebulyTelemetry, a conversation per request', () => {
  it('endConversation and flush in onFinish send the whole interaction, before the function is frozen', async () => {
    const { nebuly, reference, sent, errors } = nebulyWithReference();
    reference.faults.add({ delayMs: 20 });
    const pending: Promise<unknown>[] = [];
    const waitUntil = (promise: Promise<unknown>) => void pending.push(promise);
    const model = mockModel({
      stream: [stream(streamedToolCall('getOrder', { orderId: '42' })), stream(streamedAnswer(['Order 42 shipped.']))],
    });

    // A request that is a conversation of its own, ended in onFinish (the guide's recipe for
    // chats across requests leaves them open in Redis: test/store/recipe-serverless.test.ts).
    async function POST(request: Request) {
      const { question, userId, chatId } = (await request.json()) as { question: string; userId: string; chatId: string };
      const target = { nebuly, endUser: userId, conversationId: chatId };
      const result = streamText({
        model,
        prompt: question,
        tools: { getOrder },
        stopWhen: stepCountIs(5),
        experimental_telemetry: { isEnabled: true, integrations: [nebulyTelemetry(target)] },
        onFinish: async () => {
          await endConversation(target); // end what this request recorded…
          waitUntil(nebuly.flush()); // …and hand its delivery to the platform
        },
      });
      return result.toTextStreamResponse();
    }

    const response = await POST(new Request('http://app.test/chat', { method: 'POST', body: JSON.stringify({ question: 'Where is my order 42?', userId: 'user-1', chatId: 'chat-1' }) }));
    expect(await response.text()).toBe('Order 42 shipped.');
    await Promise.all(pending);

    expect(errors).toEqual([]); // no interaction_open, no conversation_ended
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: 'Where is my order 42?',
        output: 'Order 42 shipped.',
        trace: [expect.objectContaining({ output: 'getOrder({"orderId":"42"})' }), expect.objectContaining({ source: 'getOrder' }), expect.objectContaining({ output: 'Order 42 shipped.' })],
      }),
    ]);
  });
});

describe('middleware and telemetry together', () => {
  it('a call with tools is matched by identity: one without telemetry, alike and at the same time, is still recorded', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const slowAnswer = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return answer('Shipped.');
    };
    const model = wrapLanguageModel({
      model: new MockLanguageModelV3({ provider: 'openai.chat', modelId: 'gpt-4o', doGenerate: slowAnswer }),
      middleware: nebulyMiddleware({ conversation }),
    });
    const question = 'Where is my order 42?';
    await Promise.all([
      generateText({ model, prompt: question, tools: { getOrder }, experimental_telemetry: { isEnabled: false, integrations: [nebulyTelemetry({ conversation })] } }),
      generateText({ model, prompt: question, tools: { getOrder } }), // no telemetry: the middleware records it
    ]);
    await conversation.end();
    expect(errors).toEqual([]);
    // Each call once: one by the telemetry integration, one by the middleware.
    expect(sent()[0]?.interactions).toHaveLength(2);
    expect(sent()[0]?.interactions.map((interaction) => (interaction.trace as unknown[]).length)).toEqual([1, 1]);
  });
});
