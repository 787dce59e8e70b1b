/**
 * Each model call and each tool run recorded once, however many layers see it (issue 34,
 * item 1): a client observed twice, OpenTelemetry spans of a call a wrapper records too,
 * an app that records its tool runs itself next to an integration that reads them back.
 * Real clients against the fake OpenAI server; what is expected is computed from what
 * the provider received.
 */
import { SpanKind as OtelSpanKind } from '@opentelemetry/api';
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { nebulyMiddleware } from 'nebuly-client/ai-sdk';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIChatChunks, openAIChatCompletion } from '../../examples/support/replies.js';
import { answer, callTool, getOrder, stream, streamedAnswer } from './ai-sdk-fixtures.js';
import { nebulyWithReference } from './nebuly.js';
import { openai, provider, useFakeProvider } from './openai/provider.js';
import { tracing } from './otel/tracing.js';

useFakeProvider();

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type Sent = { interactions: Record<string, unknown>[] }[];

const TOOLS: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_order', parameters: { type: 'object', properties: { id: { type: 'number' } } } } },
];

/** Every step of every interaction sent, in order. */
const stepsOf = (sent: Sent) => sent.flatMap((conversation) => conversation.interactions.flatMap((interaction) => interaction.trace as Record<string, unknown>[]));

describe('a client observed twice', () => {
  it('observeOpenAI(observeOpenAI(client)): each call is one interaction with one step, plain and streamed', async () => {
    provider.answer((request) => {
      const body = request.body as { stream?: boolean };
      return body.stream === true
        ? { events: openAIChatChunks({ model: 'gpt-4o-2024-08-06', text: 'Streamed.' }, { withUsage: true }) }
        : openAIChatCompletion({ model: 'gpt-4o-2024-08-06', text: 'Plain.', inputTokens: 9, outputTokens: 2 });
    });
    const { nebuly, sent, errors } = nebulyWithReference();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    const client = observeOpenAI(observeOpenAI(openai(), target), target, { includeUsage: true });

    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'One?' }] });
    const chunks = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Two?' }], stream: true });
    for await (const chunk of chunks) void chunk;
    await nebuly.shutdown();

    expect(errors).toEqual([]);
    // What the provider received: two calls.
    expect(provider.requests).toHaveLength(2);
    const interactions = sent().flatMap((conversation) => conversation.interactions);
    expect(interactions.map((interaction) => [interaction.input, interaction.output, (interaction.trace as unknown[]).length])).toEqual([
      ['One?', 'Plain.', 1],
      ['Two?', 'Streamed.', 1],
    ]);
  });
});

describe('an app that records its tool runs itself beside observeOpenAI', () => {
  it('three turns of a tool loop: each tool run once, between the two model calls of its turn', async () => {
    provider.answer((request) => {
      const messages = (request.body as { messages: ChatMessage[] }).messages;
      return messages.at(-1)?.role === 'tool'
        ? openAIChatCompletion({ model: 'gpt-4o-2024-08-06', text: `Done after ${messages.filter((message) => message.role === 'tool').length} tools.` })
        : openAIChatCompletion({ model: 'gpt-4o-2024-08-06', toolCalls: [{ name: 'get_order', arguments: { id: messages.length } }] });
    });
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const history: ChatMessage[] = [];
    for (const question of ['Where is my order?', 'And the other one?', 'Thanks!']) {
      const turn = conversation.interaction({ input: question });
      const client = observeOpenAI(openai(), { turn });
      history.push({ role: 'user', content: question });
      let text = '';
      for (;;) {
        const message = (await client.chat.completions.create({ model: 'gpt-4o', messages: history, tools: TOOLS })).choices[0]!.message;
        history.push(message as ChatMessage);
        text = message.content ?? '';
        if (message.tool_calls === undefined || message.tool_calls.length === 0) break;
        for (const call of message.tool_calls) {
          if (call.type !== 'function') continue;
          const result = `order ${call.function.arguments} shipped`;
          // The app records its tool run, as the docs show for apps that run their own tools.
          turn.retrieval({ source: call.function.name, input: call.function.arguments, outputs: [result] });
          history.push({ role: 'tool', tool_call_id: call.id, content: result });
        }
      }
      turn.end({ output: text });
    }
    await conversation.end();
    await nebuly.flush();

    expect(errors).toEqual([]);
    // Expected from what the provider received: per turn, the tool call the first request's answer made.
    const requests = provider.requests.map((request) => (request.body as { messages: ChatMessage[] }).messages);
    expect(requests).toHaveLength(6);
    const interactions = sent()[0]!.interactions;
    expect(interactions).toHaveLength(3);
    interactions.forEach((interaction, index) => {
      const asked = requests[2 * index]!.length;
      const toolInput = JSON.stringify({ id: asked });
      expect(interaction.trace).toEqual([
        expect.objectContaining({ model: 'gpt-4o-2024-08-06', output: `get_order(${toolInput})` }),
        { source: 'get_order', input: toolInput, outputs: [`order ${toolInput} shipped`] },
        expect.objectContaining({ model: 'gpt-4o-2024-08-06', output: `Done after ${index + 1} tools.` }),
      ]);
    });
  });
});

describe('OpenTelemetry beside a wrapper on the same call', () => {
  it('observeOpenAI inside an instrumentation’s model-call span: one interaction, the wrapper’s', async () => {
    provider.answer(() => openAIChatCompletion({ model: 'gpt-4o-2024-08-06', text: 'Order 7 shipped.', inputTokens: 11, outputTokens: 4 }));
    const { tracer, sent, nebuly, errors } = tracing();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    const client = observeOpenAI(openai(), target);
    // An instrumentation of the OpenAI client, as OpenLLMetry's: a GenAI span around each
    // `create`, started inside the call, with the content captured.
    const completions = Object.getPrototypeOf(client.chat.completions) as { create: (...args: unknown[]) => unknown };
    const original = completions.create;
    completions.create = function (this: unknown, ...args: unknown[]) {
      const span = tracer.startSpan('chat gpt-4o', {
        kind: OtelSpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'user.id': 'user-1',
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Where is order 7?' }] }]),
        },
      });
      const result = original.apply(this, args) as Promise<unknown>;
      void result.then(
        () => span.end(),
        () => span.end(),
      );
      return result;
    };
    try {
      await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Where is order 7?' }] });
      // And a span the app opens itself around a call (a generation span of its tracing tool).
      await tracer.startActiveSpan('generation', { attributes: { 'gen_ai.operation.name': 'chat', 'user.id': 'user-1' } }, async (span) => {
        await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'And order 8?' }] });
        span.end();
      });
    } finally {
      completions.create = original;
    }
    await nebuly.shutdown();

    expect(errors).toEqual([]);
    expect(provider.requests).toHaveLength(2);
    const conversations = sent();
    expect(conversations).toHaveLength(1);
    expect(conversations[0]!.interactions.map((interaction) => interaction.input)).toEqual(['Where is order 7?', 'And order 8?']);
    expect(stepsOf(conversations)).toHaveLength(2);
  });

  it('the AI SDK with telemetry into NebulySpanProcessor and nebulyMiddleware: each model call and tool run once', async () => {
    const { tracer, sent, nebuly, errors } = tracing();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    const telemetry = { isEnabled: true, tracer, metadata: { userId: 'user-1', sessionId: 'chat-1' } };
    const generating = wrapLanguageModel({
      model: new MockLanguageModelV3({ doGenerate: [callTool('getOrder', { id: 7 }), answer('Order 7 has shipped.')] }),
      middleware: nebulyMiddleware(target),
    });
    await generateText({ model: generating, tools: { getOrder }, stopWhen: stepCountIs(3), prompt: 'Where is order 7?', experimental_telemetry: telemetry });
    const streaming = wrapLanguageModel({
      model: new MockLanguageModelV3({ doStream: stream(streamedAnswer(['Hel', 'lo!'])) }),
      middleware: nebulyMiddleware(target),
    });
    const result = streamText({ model: streaming, prompt: 'Hi', experimental_telemetry: telemetry });
    expect(await result.text).toBe('Hello!');
    await nebuly.shutdown();

    expect(errors).toEqual([]);
    const conversations = sent();
    expect(conversations).toHaveLength(1);
    expect(conversations[0]!.interactions.map((interaction) => [interaction.input, interaction.output])).toEqual([
      ['Where is order 7?', 'Order 7 has shipped.'],
      ['Hi', 'Hello!'],
    ]);
    expect(stepsOf(conversations).map((step) => ('source' in step ? `tool ${step.source as string}` : `llm ${step.output as string}`))).toEqual([
      'llm getOrder({"id":7})',
      'tool getOrder',
      'llm Order 7 has shipped.',
      'llm Hello!',
    ]);
  });

  it('a call observeOpenAI records inside a traced tool run leaves the traced run to the processor', async () => {
    provider.answer(() => openAIChatCompletion({ model: 'gpt-4o-2024-08-06', text: 'summary', inputTokens: 5, outputTokens: 1 }));
    const { tracer, sent, nebuly } = tracing();
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1', conversationId: 'tool-calls' });
    const llmAttributes = (text: string) => ({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Summarize order 7' }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: text }] }]),
    });
    await tracer.startActiveSpan('invoke_agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'user.id': 'user-1' } }, async (run) => {
      tracer.startSpan('chat', { attributes: llmAttributes('calling summarize') }).end();
      await tracer.startActiveSpan('execute_tool', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'summarize' } }, async (tool) => {
        await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Summarize order 7' }] });
        tool.end();
      });
      run.end();
    });
    await nebuly.shutdown();
    // The agent's run (its own model call and the tool run) and the wrapped call inside the tool: each once.
    const byConversation = sent().map((conversation) => conversation.interactions.map((interaction) => (interaction.trace as unknown[]).length));
    expect(byConversation.sort()).toEqual([[1], [2]]);
  });

  it('a lone GenAI span with no wrapper on its call is still recorded by the processor', async () => {
    const { tracer, sent, nebuly } = tracing();
    const span = tracer.startSpan('chat gpt-4o', {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'user.id': 'user-1',
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Hello!' }] }]),
      },
    });
    span.end();
    await nebuly.shutdown();
    expect(stepsOf(sent())).toHaveLength(1);
  });
});
