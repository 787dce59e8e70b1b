/**
 * The AI SDK's (ai 6) own OpenTelemetry spans, emitted by the real `ai` package into the
 * real OTel SDK, recorded by NebulySpanProcessor: what reached the reference server.
 */
import { embed, generateObject, generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockEmbeddingModelV3, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { answer, callTool, stream, streamedAnswer } from '../ai-sdk-fixtures.js';
import { tracing } from './tracing.js';

const getOrder = tool({
  description: 'Looks an order up',
  inputSchema: z.object({ id: z.number() }),
  execute: async ({ id }) => ({ id, status: 'shipped' }),
});

describe('NebulySpanProcessor on the AI SDK’s telemetry', () => {
  it('a generateText with a tool: one interaction, LLM, tool, LLM steps in order, span times', async () => {
    const { tracer, sent, errors, nebuly, exported } = tracing();
    const model = new MockLanguageModelV3({ doGenerate: [callTool('getOrder', { id: 7 }), answer('Order 7 has shipped.')] });
    const before = Date.now();
    await generateText({
      model,
      tools: { getOrder },
      stopWhen: stepCountIs(3),
      system: 'You are a shop assistant.',
      prompt: 'Where is order 7?',
      experimental_telemetry: { isEnabled: true, tracer, metadata: { userId: 'user-1', sessionId: 'chat-1' } },
    });
    await nebuly.shutdown();
    expect(errors).toEqual([]);
    const conversations = sent();
    expect(conversations).toHaveLength(1);
    expect(conversations[0]?.end_user).toBe('user-1');
    const [interaction] = conversations[0]?.interactions ?? [];
    expect(interaction).toMatchObject({
      input: 'Where is order 7?',
      output: 'Order 7 has shipped.',
      trace: [
        {
          model: 'gpt-4o-2024-08-06',
          messages: [
            { role: 'system', content: 'You are a shop assistant.' },
            { role: 'user', content: 'Where is order 7?' },
          ],
          output: 'getOrder({"id":7})',
          input_tokens: 20,
          output_tokens: 8,
        },
        { source: 'getOrder', input: '{"id":7}', outputs: ['{"id":7,"status":"shipped"}'] },
        { model: 'gpt-4o-2024-08-06', output: 'Order 7 has shipped.', input_tokens: 12, output_tokens: 5 },
      ],
    });
    expect(interaction?.trace).toHaveLength(3);
    // The times are the root span's, not the moment the processor saw it.
    const root = exported.getFinishedSpans().find((span) => span.name === 'ai.generateText');
    const ms = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;
    expect(Date.parse(interaction?.time_start as string)).toBe(Math.floor(ms(root!.startTime)));
    expect(Date.parse(interaction?.time_end as string)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(interaction?.time_end as string)).toBe(Math.floor(ms(root!.endTime)));
  });

  it('calls with the same sessionId are one conversation; without one, a conversation each', async () => {
    const { tracer, sent, nebuly } = tracing();
    const ask = (prompt: string, metadata: Record<string, string>) =>
      generateText({ model: new MockLanguageModelV3({ doGenerate: answer(`re: ${prompt}`) }), prompt, experimental_telemetry: { isEnabled: true, tracer, metadata } });
    await ask('one', { userId: 'user-1', sessionId: 'chat-1' });
    await ask('two', { userId: 'user-1', sessionId: 'chat-1' });
    await ask('alone', { userId: 'user-2' });
    await nebuly.shutdown();
    const byUser = Object.fromEntries(sent().map((conversation) => [conversation.end_user, conversation.interactions.map((interaction) => interaction.input)]));
    expect(byUser).toEqual({ 'user-1': ['one', 'two'], 'user-2': ['alone'] });
  });

  it('streamText: one LLM step with the streamed text and the usage', async () => {
    const { tracer, sent, nebuly, exported } = tracing();
    const model = new MockLanguageModelV3({ doStream: stream(streamedAnswer(['Hel', 'lo!'])) });
    const result = streamText({ model, prompt: 'Hi', experimental_telemetry: { isEnabled: true, tracer, metadata: { userId: 'user-1' } } });
    expect(await result.text).toBe('Hello!');
    // ai ends the run's span a moment after the text settles.
    // As long as a test may take (vitest.config.ts), not vi.waitFor's 1 s: a bound, not a measure.
    await vi.waitFor(() => expect(exported.getFinishedSpans().map((span) => span.name)).toContain('ai.streamText'), { timeout: 60_000 });
    await nebuly.shutdown();
    expect(sent()[0]?.interactions).toMatchObject([
      { input: 'Hi', output: 'Hello!', trace: [{ model: 'gpt-4o-2024-08-06', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!', input_tokens: 12, output_tokens: 5 }] },
    ]);
  });

  it('generateObject: the object as the answer', async () => {
    const { tracer, sent, nebuly } = tracing();
    const model = new MockLanguageModelV3({ doGenerate: answer('{"status":"shipped"}') });
    await generateObject({
      model,
      schema: z.object({ status: z.string() }),
      prompt: 'Status of order 7?',
      experimental_telemetry: { isEnabled: true, tracer, metadata: { userId: 'user-1' } },
    });
    await nebuly.shutdown();
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Status of order 7?', output: '{"status":"shipped"}', trace: [{ output: '{"status":"shipped"}' }] }]);
  });

  it('embed: one embedding step with the value and the tokens', async () => {
    const { tracer, sent, nebuly } = tracing();
    const model = new MockEmbeddingModelV3({ doEmbed: async () => ({ embeddings: [[0.5, 1]], usage: { tokens: 3 }, warnings: [] }) });
    await embed({ model, value: 'order 7', experimental_telemetry: { isEnabled: true, tracer, metadata: { userId: 'user-1' } } });
    await nebuly.shutdown();
    expect(sent()[0]?.interactions).toMatchObject([{ trace: [{ model: 'mock-model-id', input: 'order 7', input_tokens: 3 }] }]);
  });

  it('content capture off (recordInputs/recordOutputs false): no empty steps, told once at info', async () => {
    const { tracer, sent, nebuly, info } = tracing();
    const model = new MockLanguageModelV3({ doGenerate: answer('secret answer') });
    for (const prompt of ['secret one', 'secret two']) {
      await generateText({ model, prompt, experimental_telemetry: { isEnabled: true, tracer, recordInputs: false, recordOutputs: false, metadata: { userId: 'user-1' } } });
    }
    await nebuly.shutdown();
    const interactions = sent().flatMap((conversation) => conversation.interactions);
    expect(interactions).toHaveLength(2);
    for (const interaction of interactions) expect(interaction.trace).toEqual([]);
    expect(JSON.stringify(sent())).not.toContain('secret');
    expect(info.filter((line) => line.includes('content capture is off'))).toHaveLength(1);
    expect(info[0]).toContain('traced by test');
  });

  it('a model wrapped by a middleware that traces the provider call: recorded once', async () => {
    const { tracer, sent, nebuly } = tracing();
    // A provider instrumentation's span inside the AI SDK's model-call span (OpenLLMetry form).
    const instrumented = wrapLanguageModel({
      model: new MockLanguageModelV3({ doGenerate: answer('Hello!') }),
      middleware: {
        specificationVersion: 'v3',
        wrapGenerate: ({ doGenerate }) =>
          tracer.startActiveSpan('openai.chat', { attributes: { 'llm.request.type': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.prompt.0.role': 'user', 'gen_ai.prompt.0.content': 'Hi' } }, async (span) => {
            const result = await doGenerate();
            span.setAttributes({ 'gen_ai.completion.0.content': 'Hello!', 'gen_ai.usage.prompt_tokens': 12 });
            span.end();
            return result;
          }),
      },
    });
    await generateText({ model: instrumented, prompt: 'Hi', experimental_telemetry: { isEnabled: true, tracer, metadata: { userId: 'user-1' } } });
    await nebuly.shutdown();
    expect(sent()[0]?.interactions[0]?.trace).toHaveLength(1);
  });
});
