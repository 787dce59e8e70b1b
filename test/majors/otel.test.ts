/**
 * ai 7's OpenTelemetry integrations (`@ai-sdk/otel`: `OpenTelemetry`, the GenAI semantic
 * conventions form, and `LegacyOpenTelemetry`, the `ai.*` form), emitting real spans into
 * the real OTel SDK, recorded by NebulySpanProcessor. What reached the server.
 */
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NebulySpanProcessor } from 'nebuly-client/otel';
import { nebulyWithReference } from './nebuly.js';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

type Generated = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
const usage = (input: number, output: number): Generated['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const callTool: Generated = {
  content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'getOrder', input: '{"id":7}' }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: usage(20, 8),
  warnings: [],
  response: { modelId: 'gpt-5-2026-01-01' },
};
const answer: Generated = {
  content: [{ type: 'text', text: 'Order 7 has shipped.' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: usage(12, 5),
  warnings: [],
  response: { modelId: 'gpt-5-2026-01-01' },
};
const getOrder = tool({ inputSchema: z.object({ id: z.number() }), execute: async ({ id }) => ({ id, status: 'shipped' }) });

describe.each([
  ['OpenTelemetry (GenAI semantic conventions)', OpenTelemetry],
  ['LegacyOpenTelemetry (ai.* attributes)', LegacyOpenTelemetry],
])('NebulySpanProcessor on ai 7’s %s', (_name, Form) => {
  it('a generateText with a tool: one interaction, LLM, tool, LLM, once each', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const exported = new InMemorySpanExporter();
    // ai 7 has no telemetry metadata: the end user comes from a resolver of the app.
    const processor = new NebulySpanProcessor({ nebuly, endUser: () => 'user-1' });
    const provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(exported)] });
    const model = new MockLanguageModelV4({ doGenerate: [callTool, answer] });
    await generateText({ model, tools: { getOrder }, stopWhen: stepCountIs(3), prompt: 'Where is order 7?', telemetry: { integrations: [new Form({ tracer: provider.getTracer('ai') })] } });
    await provider.shutdown();
    expect(errors).toEqual([]);
    const spans = exported.getFinishedSpans().map((span) => span.name);
    expect(sent(), `spans: ${spans.join(', ')}`).toHaveLength(1);
    expect(sent()[0]?.interactions).toMatchObject([
      {
        input: 'Where is order 7?',
        output: 'Order 7 has shipped.',
        trace: [
          { messages: [{ role: 'user', content: 'Where is order 7?' }], output: 'getOrder({"id":7})', input_tokens: 20, output_tokens: 8 },
          { source: 'getOrder', input: '{"id":7}', outputs: [expect.stringContaining('shipped')] },
          { output: 'Order 7 has shipped.', input_tokens: 12, output_tokens: 5 },
        ],
      },
    ]);
    expect(sent()[0]?.interactions[0]?.trace).toHaveLength(3);
  });
});
