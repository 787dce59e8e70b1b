/**
 * Beside Langfuse (issue 34, item 7): an app traced with the real `@langfuse/tracing`
 * emits its observations as OpenTelemetry spans; NebulySpanProcessor, added to the same
 * tracer provider, reads Langfuse's attributes (`langfuse.observation.*`, `user.id`,
 * `session.id`, `langfuse.trace.*`) into conversations. Expected values are those the app
 * gave Langfuse.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { propagateAttributes, setActiveTraceIO, setLangfuseTracerProvider, startActiveObservation, startObservation } from '@langfuse/tracing';
import { NebulyClient } from 'nebuly-client';
import { NebulySpanProcessor } from 'nebuly-client/otel';
import { createReferenceHandler } from 'nebuly-client/reference-server';
import { afterEach, describe, expect, it } from 'vitest';
import { CONVERSATIONS_PATH } from '../nebuly.js';
import { tracing } from './tracing.js';

afterEach(() => setLangfuseTracerProvider(null));

const SYSTEM = 'You are a shop assistant.';

/** One chat turn as a Langfuse-instrumented app traces it: a span, two generations and a tool between. */
async function chatTurn(question: string, userId: string, sessionId: string): Promise<string> {
  return startActiveObservation('chat-turn', async (turn) => {
    return propagateAttributes({ userId, sessionId }, async () => {
      turn.update({ input: question });
      const messages = [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: question },
      ];
      const asking = startObservation('openai.chat', { model: 'gpt-4o-2024-08-06', input: messages }, { asType: 'generation' });
      asking
        .update({
          output: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_order', arguments: '{"id":7}' } }] },
          usageDetails: { input: 20, output: 8, total: 28 },
        })
        .end();
      const tool = startObservation('get_order', { input: { id: 7 } }, { asType: 'tool' });
      tool.update({ output: { id: 7, status: 'shipped' } }).end();
      const answer = `Order 7 shipped (${question.length}).`;
      const answering = startObservation('openai.chat', { model: 'gpt-4o-2024-08-06', input: [...messages, { role: 'tool', content: '{"id":7,"status":"shipped"}' }] }, { asType: 'generation' });
      answering.update({ output: answer, usageDetails: { input: 31, output: 6 } }).end();
      turn.update({ output: answer });
      return answer;
    });
  });
}

describe('NebulySpanProcessor beside Langfuse', () => {
  it('observations of @langfuse/tracing: one interaction per trace, generations and tools as steps, user and session', async () => {
    const { provider, sent, nebuly, errors, info } = tracing();
    setLangfuseTracerProvider(provider);
    const first = await chatTurn('Where is order 7?', 'user-1', 'chat-1');
    const second = await chatTurn('And when does it arrive?', 'user-1', 'chat-1');
    await nebuly.shutdown();

    expect(errors).toEqual([]);
    expect(info).toEqual([]);
    const conversations = sent();
    expect(conversations).toHaveLength(1);
    expect(conversations[0]!.end_user).toBe('user-1');
    const interactions = conversations[0]!.interactions;
    expect(interactions.map((interaction) => [interaction.input, interaction.output])).toEqual([
      ['Where is order 7?', first],
      ['And when does it arrive?', second],
    ]);
    expect(interactions[0]!.trace).toEqual([
      {
        model: 'gpt-4o-2024-08-06',
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: 'Where is order 7?' },
        ],
        output: 'get_order({"id":7})',
        input_tokens: 20,
        output_tokens: 8,
      },
      { source: 'get_order', input: '{"id":7}', outputs: ['{"id":7,"status":"shipped"}'] },
      expect.objectContaining({ model: 'gpt-4o-2024-08-06', output: first, input_tokens: 31, output_tokens: 6 }),
    ]);
  });

  it('the trace’s own input and output (setActiveTraceIO) are the interaction’s; a span without a model call is none', async () => {
    const { provider, sent, nebuly } = tracing();
    setLangfuseTracerProvider(provider);
    await startActiveObservation('request', async () => {
      await propagateAttributes({ userId: 'user-2' }, async () => {
        setActiveTraceIO({ input: { question: 'Hi there' }, output: 'Hello!' });
        startObservation('llm', { model: 'claude-haiku-4-5', input: 'Hi there' }, { asType: 'generation' }).update({ output: 'Hello!' }).end();
      });
    });
    // Work Langfuse traces that made no model call: not an interaction.
    await startActiveObservation('db-query', async () => {
      await propagateAttributes({ userId: 'user-2' }, async () => undefined);
    });
    await nebuly.shutdown();
    const conversations = sent();
    expect(conversations).toHaveLength(1);
    expect(conversations[0]!.interactions).toMatchObject([{ input: 'Hi there', output: 'Hello!', trace: [{ model: 'claude-haiku-4-5', output: 'Hello!' }] }]);
  });

  it('an app on Langfuse adds Nebuly in one line: the span processor beside its exporter', async () => {
    const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
    const nebuly = new NebulyClient({ apiKey: 'test-key', baseUrl: 'http://nebuly.reference.test', fetch: (input, init) => reference.fetch(new Request(input, init)) });
    // The app's setup, as Langfuse's docs give it, with its exporter standing for Langfuse's.
    const langfuseExport = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor(langfuseExport),
        new NebulySpanProcessor({ nebuly }), // the one line
      ],
    });
    setLangfuseTracerProvider(provider);
    await chatTurn('Where is order 7?', 'user-3', 'chat-3');
    await provider.forceFlush();
    expect(langfuseExport.getFinishedSpans().map((span) => span.name)).toEqual(['openai.chat', 'get_order', 'openai.chat', 'chat-turn']);
    await provider.shutdown();

    const bodies = reference.requests.all({ path: CONVERSATIONS_PATH }).map((request) => JSON.parse(request.body) as { conversation: { end_user: string; interactions: unknown[] } });
    expect(bodies.map((body) => [body.conversation.end_user, body.conversation.interactions.length])).toEqual([['user-3', 1]]);
  });
});
