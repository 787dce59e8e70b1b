// Any OpenTelemetry GenAI instrumentation recorded into Nebuly with one span processor:
// here the Vercel AI SDK's own telemetry (`experimental_telemetry`), whose spans the
// OpenTelemetry SDK hands to `NebulySpanProcessor`. The same processor reads OpenLLMetry,
// OpenInference and the OTel GenAI semantic conventions.
//
//   npx tsx examples/otel.ts
//
// No network and no key: the model is the AI SDK's mock (`ai/test`), and the Nebuly API is
// the reference server, started in-process on loopback.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { NebulyClient } from 'nebuly-client';
import { NebulySpanProcessor } from 'nebuly-client/otel';
import { createReferenceServer } from 'nebuly-client/reference-server';
import * as z from 'zod';

const server = await createReferenceServer({ apiKeys: { 'dev-key': 'support-bot' } });
const nebuly = new NebulyClient({
  apiKey: 'dev-key',
  baseUrl: server.url,
  onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`),
});

// The tracing set-up of the app: NodeTracerProvider in production (it registers the
// context manager itself); the processor goes beside the exporters the app already has.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const provider = new BasicTracerProvider({ spanProcessors: [new NebulySpanProcessor({ nebuly })] });
const tracer = provider.getTracer('support-bot');

// --- A stand-in for a provider's model: a tool call, then the answer. ---
const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'getOrder', input: '{"id":42}' }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: usage(40, 9),
      warnings: [],
      response: { modelId: 'gpt-4o-2024-08-06' },
    },
    {
      content: [{ type: 'text', text: 'Your order 42 has shipped and arrives on Tuesday.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(61, 12),
      warnings: [],
      response: { modelId: 'gpt-4o-2024-08-06' },
    },
  ],
});
const getOrder = tool({
  description: 'Looks an order up',
  inputSchema: z.object({ id: z.number() }),
  execute: async ({ id }) => ({ id, status: 'shipped', arrives: 'Tuesday' }),
});

// The app's call, as it already is: telemetry on, the user and the chat as metadata.
const { text } = await generateText({
  model,
  tools: { getOrder },
  stopWhen: stepCountIs(3),
  prompt: 'Where is my order 42?',
  experimental_telemetry: { isEnabled: true, tracer, metadata: { userId: 'user-7f3a', sessionId: 'chat-1' } },
});
console.log(`A: ${text}`);

// Shutting the provider down shuts the client down: the chat's conversation is sent.
await provider.shutdown();
console.log('\nWhat the Nebuly API received:');
for (const stored of server.store.listInteractions('support-bot')) {
  console.log(`- ${stored.end_user}: interaction "${stored.input}" → "${stored.output}"`);
  for (const step of stored.trace) {
    if ('source' in step) console.log(`    tool      ${step.source}(${step.input}) → ${step.outputs.join(' ')}`);
    else if ('messages' in step) console.log(`    llm       ${step.model}: ${JSON.stringify(step.output)} (${step.input_tokens ?? '?'} → ${step.output_tokens ?? '?'} tokens)`);
    else console.log(`    embedding ${step.model}: ${JSON.stringify(step.input)}`);
  }
}
await server.close();
