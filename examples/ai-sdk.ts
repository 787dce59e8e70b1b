// A support chatbot built on the Vercel AI SDK (ai 6), recorded into Nebuly:
// `nebulyTelemetry` records each multi-step run (model calls and the tool it runs, in
// order); `nebulyMiddleware` records the model calls that run without telemetry (here
// `generateObject`) and the embeddings. Everything a question takes lands in its turn.
//
//   npx tsx examples/ai-sdk.ts
//
// No network and no key: the models are the AI SDK's own mocks (`ai/test`), and the
// Nebuly API is the reference server, started in-process on loopback.
import {
  embed,
  generateObject,
  generateText,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  wrapEmbeddingModel,
  wrapLanguageModel,
} from 'ai';
import { MockEmbeddingModelV3, MockLanguageModelV3 } from 'ai/test';
import { hashEndUser, NebulyClient } from 'nebuly-client';
import { nebulyMiddleware, nebulyTelemetry } from 'nebuly-client/ai-sdk';
import { createReferenceServer } from 'nebuly-client/reference-server';
import * as z from 'zod';

const server = await createReferenceServer({ apiKeys: { 'dev-key': 'support-bot' } });
const nebuly = new NebulyClient({
  apiKey: 'dev-key',
  baseUrl: server.url,
  onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`),
});

// --- Stand-ins for a provider's model: scripted answers in the AI SDK's own format. ---
const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const chatModel = new MockLanguageModelV3({
  provider: 'openai.chat',
  modelId: 'gpt-4o-mini',
  doGenerate: async ({ prompt }) =>
    prompt.some((message) => message.role === 'tool')
      ? {
          content: [{ type: 'text', text: 'Your order 42 has shipped and arrives on Tuesday.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(64, 12),
          warnings: [],
        }
      : prompt.some((message) => message.role === 'system' && message.content.includes('JSON'))
        ? {
            content: [{ type: 'text', text: '{"topic":"shipping","urgent":false}' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: usage(30, 9),
            warnings: [],
          }
        : {
            content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'getOrder', input: '{"orderId":"42"}' }],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage: usage(48, 10),
            warnings: [],
          },
  doStream: async () => ({
    stream: simulateReadableStream({
      chunks: [
        { type: 'text-start', id: 't' },
        ...['You can ', 'change it ', 'until it ships.'].map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(40, 7) },
      ],
    }),
  }),
});
const embeddingModel = new MockEmbeddingModelV3({
  modelId: 'text-embedding-3-small',
  doEmbed: async ({ values }) => ({ embeddings: values.map(() => [0.12, -0.4, 0.33]), usage: { tokens: 7 }, warnings: [] }),
});

// --- The chatbot. ---
const getOrder = tool({
  description: 'Looks an order up by its number',
  inputSchema: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'shipped', arrives: 'Tuesday' }),
});

// One recorded conversation per chat session.
const conversation = nebuly.startConversation({ end_user: await hashEndUser('alice@example.com', { salt: 'my-app' }) });

// A question that takes several calls: one turn, and each call a step of it, in order.
async function answer(question: string): Promise<string> {
  const turn = conversation.interaction({ input: question });
  const target = { turn };
  // Wrapping is cheap: wrap per request when the target is per request.
  const model = wrapLanguageModel({ model: chatModel, middleware: nebulyMiddleware(target) });
  const embedder = wrapEmbeddingModel({ model: embeddingModel, middleware: nebulyMiddleware(target) });

  // Search the help centre: an embedding step (recorded by the middleware).
  await embed({ model: embedder, value: question });
  // Route the question: generateObject calls no telemetry integration; the middleware records it.
  const { object: route } = await generateObject({
    model,
    schema: z.object({ topic: z.string(), urgent: z.boolean() }),
    system: 'Classify the question. Answer in JSON.',
    prompt: question,
  });
  console.log(`  route: ${JSON.stringify(route)}`);
  // The multi-step run: the telemetry integration records its model calls and the tool
  // between them (a new integration per call); the middleware on the same model stands
  // down, so each model call is recorded once.
  const { text } = await generateText({
    model,
    system: 'You are the support assistant of an online shop.',
    prompt: question,
    tools: { getOrder },
    stopWhen: stepCountIs(5),
    experimental_telemetry: { isEnabled: true, integrations: [nebulyTelemetry(target)] },
  });
  turn.end({ output: text });
  return text;
}

console.log('Q: Where is my order 42?');
console.log(`A: ${await answer('Where is my order 42?')}`);

// A one-call question, streamed, with the conversation as target: the call is a turn of
// its own (input: the user's message; output: the answer), recorded whole when the stream ends.
const question = 'Can I change the delivery address?';
console.log(`Q: ${question}`);
const streamed = streamText({
  model: chatModel,
  prompt: question,
  experimental_telemetry: { integrations: [nebulyTelemetry({ conversation })] },
});
process.stdout.write('A: ');
for await (const chunk of streamed.textStream) process.stdout.write(chunk);
process.stdout.write('\n');

// The chat session ends: its conversation is sent. In a serverless function, pass
// `nebuly.flush()` to `waitUntil` (or await it) before returning.
const outcome = await conversation.end();
console.log(`conversation.end(): ${outcome.status}`);
await nebuly.shutdown();

console.log('\nWhat the Nebuly API received:');
for (const stored of server.store.listInteractions('support-bot')) {
  console.log(`- interaction "${stored.input}" → "${stored.output}"`);
  for (const step of stored.trace) {
    if ('source' in step) console.log(`    tool      ${step.source}(${step.input}) → ${step.outputs.join(' ')}`);
    else if ('messages' in step) console.log(`    llm       ${step.model}: ${JSON.stringify(step.output)} (${step.input_tokens ?? '?'} → ${step.output_tokens ?? '?'} tokens)`);
    else console.log(`    embedding ${step.model}: ${JSON.stringify(step.input)}`);
  }
}
await server.close();
