/**
 * ai 7 (Node 22+): `nebulyMiddleware` on ai 7's model interface (LanguageModelV4), and
 * `nebulyTelemetry` through ai 7's own telemetry (per call, and `registerTelemetry`), for
 * generate, stream, tools, `ToolLoopAgent`, objects and embeddings. What reached the server.
 */
import { embed, embedMany, generateObject, generateText, registerTelemetry, stepCountIs, streamText, tool, ToolLoopAgent, wrapEmbeddingModel, wrapLanguageModel } from 'ai';
import { MockEmbeddingModelV4, MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { nebulyMiddleware, nebulyTelemetry } from 'nebuly-client/ai-sdk';
import { nebulyWithReference } from './nebuly.js';

type Generated = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type Streamed = Awaited<ReturnType<MockLanguageModelV4['doStream']>>;
type Part = Streamed['stream'] extends ReadableStream<infer PART> ? PART : never;

const usage = (input: number, output: number): Generated['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const answer = (text: string, tokens = usage(12, 5)): Generated => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: tokens,
  warnings: [],
  response: { modelId: 'gpt-5-2026-01-01' },
});
const callTool = (args: unknown, toolCallId = 'call-1'): Generated => ({
  content: [{ type: 'tool-call', toolCallId, toolName: 'getOrder', input: JSON.stringify(args) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: usage(20, 8),
  warnings: [],
  response: { modelId: 'gpt-5-2026-01-01' },
});
const streamed = (deltas: string[]): Streamed => ({
  stream: new ReadableStream<Part>({
    start(controller) {
      const parts: Part[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'resp-1', modelId: 'gpt-5-2026-01-01', timestamp: new Date(0) },
        { type: 'text-start', id: 't1' },
        ...deltas.map((delta): Part => ({ type: 'text-delta', id: 't1', delta })),
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(12, 5) },
      ];
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  }),
});
const embedder = () => new MockEmbeddingModelV4({ maxEmbeddingsPerCall: 10, doEmbed: async ({ values }) => ({ embeddings: values.map(() => [0.5, 1]), usage: { tokens: 3 * values.length }, warnings: [] }) });

const getOrder = tool({
  description: 'Looks an order up',
  inputSchema: z.object({ id: z.number() }),
  execute: async ({ id }) => ({ id, status: 'shipped' }),
});

const QUESTION_STEP = { model: 'mock-model-id', messages: [{ role: 'user', content: 'Where is order 7?' }], output: 'getOrder({"id":7})', input_tokens: 20, output_tokens: 8 };
const TOOL_STEP = { source: 'getOrder', input: '{"id":7}', outputs: ['{"id":7,"status":"shipped"}'] };
const ANSWER_STEP = { model: 'mock-model-id', output: 'Order 7 has shipped.', input_tokens: 12, output_tokens: 5 };

afterEach(() => {
  globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
});

describe('nebulyMiddleware on ai 7 (LanguageModelV4)', () => {
  it('generateText with a tool: one LLM step per model call, with the provider’s model and tokens, the tool run between', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Where is order 7?' });
    const model = wrapLanguageModel({ model: new MockLanguageModelV4({ doGenerate: [callTool({ id: 7 }), answer('Order 7 has shipped.')] }), middleware: nebulyMiddleware({ turn }) });
    const { text } = await generateText({ model, tools: { getOrder }, stopWhen: stepCountIs(3), prompt: 'Where is order 7?' });
    expect(text).toBe('Order 7 has shipped.');
    turn.end({ output: text });
    await conversation.end();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]?.trace).toMatchObject([
      { ...QUESTION_STEP, model: 'gpt-5-2026-01-01' },
      TOOL_STEP,
      { ...ANSWER_STEP, model: 'gpt-5-2026-01-01' },
    ]);
  });

  it('streamText: the parts pass through; the step has the streamed text and the usage', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const model = wrapLanguageModel({ model: new MockLanguageModelV4({ doStream: streamed(['Hel', 'lo!']) }), middleware: nebulyMiddleware({ nebuly, endUser: 'user-1' }) });
    const result = streamText({ model, prompt: 'Hi' });
    expect(await result.text).toBe('Hello!');
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Hi', output: 'Hello!', trace: [{ model: 'gpt-5-2026-01-01', output: 'Hello!', input_tokens: 12, output_tokens: 5 }] }]);
  });

  it('embed through wrapEmbeddingModel: one embedding step', async () => {
    const { nebuly, sent, info } = nebulyWithReference();
    const model = wrapEmbeddingModel({ model: embedder(), middleware: nebulyMiddleware({ nebuly, endUser: 'user-1' }) });
    await embed({ model, value: 'order 7' });
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ model: 'mock-model-id', input: 'order 7', input_tokens: 3 }]);
    // ai 7, read from the call's user agent: a tested major, nothing said.
    expect(info.filter((line) => line.includes('not tested with'))).toEqual([]);
  });
});

describe('nebulyTelemetry through ai 7’s telemetry', () => {
  it('generateText with a tool (per-call integrations): LLM, tool, LLM, in order, one interaction', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = new MockLanguageModelV4({ doGenerate: [callTool({ id: 7 }), answer('Order 7 has shipped.')] });
    await generateText({ model, tools: { getOrder }, stopWhen: stepCountIs(3), prompt: 'Where is order 7?', telemetry: { integrations: [nebulyTelemetry({ conversation })] } });
    await conversation.end();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Where is order 7?', output: 'Order 7 has shipped.', trace: [QUESTION_STEP, TOOL_STEP, ANSWER_STEP] }]);
    expect(sent()[0]?.interactions[0]?.trace).toHaveLength(3);
  });

  it('ToolLoopAgent: one interaction with its model calls and tool runs', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const agent = new ToolLoopAgent({
      model: new MockLanguageModelV4({ doGenerate: [callTool({ id: 7 }), answer('Order 7 has shipped.')] }),
      tools: { getOrder },
      telemetry: { integrations: [nebulyTelemetry({ nebuly, endUser: 'user-1' })] },
    });
    const result = await agent.generate({ prompt: 'Where is order 7?' });
    expect(result.text).toBe('Order 7 has shipped.');
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Where is order 7?', output: 'Order 7 has shipped.', trace: [QUESTION_STEP, TOOL_STEP, ANSWER_STEP] }]);
  });

  it('registerTelemetry: one integration follows concurrent calls apart (by callId)', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    registerTelemetry(nebulyTelemetry({ nebuly, endUser: 'user-1', conversationId: 'chat-1' }));
    const slow = new MockLanguageModelV4({ doGenerate: async () => (await new Promise((resolve) => setTimeout(resolve, 20)), answer('slow answer')) });
    const fast = new MockLanguageModelV4({ doGenerate: answer('fast answer') });
    await Promise.all([generateText({ model: slow, prompt: 'slow question' }), generateText({ model: fast, prompt: 'fast question' })]);
    await nebuly.shutdown();
    expect(errors).toEqual([]);
    const pairs = sent()[0]?.interactions.map((interaction) => [interaction.input, interaction.output]);
    expect(pairs).toEqual([
      ['slow question', 'slow answer'],
      ['fast question', 'fast answer'],
    ]);
  });

  it('streamText: one LLM step', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const result = streamText({ model: new MockLanguageModelV4({ doStream: streamed(['Hel', 'lo!']) }), prompt: 'Hi', telemetry: { integrations: [nebulyTelemetry({ nebuly, endUser: 'user-1' })] } });
    expect(await result.text).toBe('Hello!');
    await result.consumeStream();
    await nebuly.shutdown();
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Hi', output: 'Hello!', trace: [{ model: 'mock-model-id', output: 'Hello!', input_tokens: 12, output_tokens: 5 }] }]);
  });

  it('generateObject: one LLM step; the object is the answer', async () => {
    const { nebuly, sent } = nebulyWithReference();
    await generateObject({
      model: new MockLanguageModelV4({ doGenerate: answer('{"status":"shipped"}') }),
      schema: z.object({ status: z.string() }),
      prompt: 'Status of order 7?',
      telemetry: { integrations: [nebulyTelemetry({ nebuly, endUser: 'user-1' })] },
    });
    await nebuly.flush();
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Status of order 7?', output: '{"status":"shipped"}', trace: [{ output: '{"status":"shipped"}', input_tokens: 12 }] }]);
  });

  it('embedMany: an embedding step per model call', async () => {
    const { nebuly, sent } = nebulyWithReference();
    await embedMany({ model: embedder(), values: ['order 7', 'shipping'], telemetry: { integrations: [nebulyTelemetry({ nebuly, endUser: 'user-1' })] } });
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ model: 'mock-model-id', input: 'order 7\nshipping', input_tokens: 6 }]);
  });

  it('with the middleware on the same model: each model call recorded once', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const target = { nebuly, endUser: 'user-1' };
    const model = wrapLanguageModel({ model: new MockLanguageModelV4({ doGenerate: [callTool({ id: 7 }), answer('Order 7 has shipped.')] }), middleware: nebulyMiddleware(target) });
    await generateText({ model, tools: { getOrder }, stopWhen: stepCountIs(3), prompt: 'Where is order 7?', telemetry: { integrations: [nebulyTelemetry(target)] } });
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions[0]?.trace).toHaveLength(3);
  });

  it('a call that fails: a step that says so, and the interaction ends', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const model = new MockLanguageModelV4({ doGenerate: async () => { throw new Error('provider down'); } });
    await expect(generateText({ model, prompt: 'Hi', maxRetries: 0, telemetry: { integrations: [nebulyTelemetry({ nebuly, endUser: 'user-1' })] } })).rejects.toThrow('provider down');
    await nebuly.flush();
    expect(sent()[0]?.interactions).toMatchObject([
      { input: 'Hi', output: '[nebuly: call failed (Error)]', trace: [{ messages: [{ role: 'user', content: 'Hi' }], output: '[nebuly: call failed (Error)]' }] },
    ]);
  });
});
