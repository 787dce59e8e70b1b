/**
 * What the user saw (issue 34, item 4): an AI SDK `streamText` whose steps write text
 * before their tool calls records, as the interaction's output, all of its `textStream`,
 * not only the last step's text (a raw provider client keeps the final answer); and a
 * LangChain ChatAnthropic stream with thinking records the model and the output tokens
 * Anthropic's stream said (the real `@langchain/anthropic` against the fake Anthropic
 * server).
 */
import { ChatAnthropic } from '@langchain/anthropic';
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { nebulyMiddleware } from 'nebuly-client/ai-sdk';
import { NebulyCallbackHandler } from 'nebuly-client/langchain';
import { observeOpenAI } from 'nebuly-client/openai';
import type { ServerEvent } from '../../examples/support/fake-llm-server.js';
import { openAIChatCompletion } from '../../examples/support/replies.js';
import { answer, getOrder, mockModel, stream, streamedAnswer, usage } from './ai-sdk-fixtures.js';
import { nebulyWithReference } from './nebuly.js';
import { openai, provider, useFakeProvider } from './openai/provider.js';
import { tracing } from './otel/tracing.js';

useFakeProvider();

/** A streamed step that writes `text`, then asks for getOrder. */
function textThenToolCall(text: string, orderId: string) {
  return stream([
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp-0', modelId: 'gpt-4o-2024-08-06', timestamp: new Date(0) },
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: text },
    { type: 'text-end', id: 't0' },
    { type: 'tool-call', toolCallId: `call-${orderId}`, toolName: 'getOrder', input: JSON.stringify({ orderId }) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(20, 8) },
  ]);
}

describe('the AI SDK’s streamText', () => {
  it('text before the tool calls: the output is all of textStream, across the steps', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    const model = wrapLanguageModel({
      model: mockModel({ stream: [textThenToolCall('Let me look that up. ', '7'), textThenToolCall('One more check. ', '8'), stream(streamedAnswer(['Both ', 'shipped.']))] }),
      middleware: nebulyMiddleware(target),
    });
    const result = streamText({ model, tools: { getOrder }, stopWhen: stepCountIs(5), prompt: 'Where are orders 7 and 8?' });
    let shown = '';
    for await (const text of result.textStream) shown += text;
    await nebuly.shutdown();

    expect(errors).toEqual([]);
    expect(shown).toBe('Let me look that up. One more check. Both shipped.');
    const [interaction] = sent()[0]!.interactions;
    expect(interaction).toMatchObject({ input: 'Where are orders 7 and 8?', output: shown });
    expect((interaction!.trace as Record<string, unknown>[]).map((step) => step.output ?? step.source)).toEqual([
      'Let me look that up. \ngetOrder({"orderId":"7"})',
      'getOrder',
      'One more check. \ngetOrder({"orderId":"8"})',
      'getOrder',
      'Both shipped.',
    ]);
  });

  it('with its telemetry into NebulySpanProcessor: the output is all of textStream too', async () => {
    const { tracer, sent, nebuly, errors } = tracing();
    const model = mockModel({ stream: [textThenToolCall('Let me look that up. ', '7'), stream(streamedAnswer(['Order 7 ', 'shipped.']))] });
    const result = streamText({
      model,
      tools: { getOrder },
      stopWhen: stepCountIs(5),
      prompt: 'Where is order 7?',
      experimental_telemetry: { isEnabled: true, tracer, metadata: { userId: 'user-1' } },
    });
    let shown = '';
    for await (const text of result.textStream) shown += text;
    await nebuly.shutdown();
    expect(errors).toEqual([]);
    expect(shown).toBe('Let me look that up. Order 7 shipped.');
    expect(sent()[0]!.interactions[0]).toMatchObject({ input: 'Where is order 7?', output: shown });
  });

  it('generateText shows its final text: the output is the last step’s, as before', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const model = wrapLanguageModel({
      model: mockModel({
        generate: [
          { ...answer('Let me look that up.'), content: [{ type: 'text', text: 'Let me look that up.' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'getOrder', input: '{"orderId":"7"}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
          answer('Order 7 shipped.'),
        ],
      }),
      middleware: nebulyMiddleware({ nebuly, endUser: 'user-1' }),
    });
    const { text } = await generateText({ model, tools: { getOrder }, stopWhen: stepCountIs(5), prompt: 'Where is order 7?' });
    await nebuly.shutdown();
    expect(text).toBe('Order 7 shipped.');
    expect(sent()[0]!.interactions[0]).toMatchObject({ output: 'Order 7 shipped.' });
  });

  it('a raw provider client keeps the final answer', async () => {
    provider.answer((request) =>
      (request.body as { messages: { role: string }[] }).messages.at(-1)?.role === 'tool'
        ? openAIChatCompletion({ model: 'gpt-4o-2024-08-06', text: 'Order 7 shipped.' })
        : openAIChatCompletion({ model: 'gpt-4o-2024-08-06', text: 'Let me look.', toolCalls: [{ name: 'get_order', arguments: { id: 7 } }] }),
    );
    const { nebuly, sent } = nebulyWithReference();
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1', conversationId: 'c' });
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Where is order 7?' }] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Where is order 7?' }, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'shipped' }],
    });
    await nebuly.shutdown();
    expect(sent()[0]!.interactions[0]).toMatchObject({ output: 'Order 7 shipped.' });
  });
});

/** Anthropic's stream of an answer with extended thinking, as the Messages API sends it. */
function thinkingEvents(model: string, usageAtStart: { input: number; output: number }, outputTokens: number): ServerEvent[] {
  const event = (type: string, data: Record<string, unknown>): ServerEvent => ({ event: type, data: { type, ...data } });
  return [
    event('message_start', {
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usageAtStart.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: usageAtStart.output },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'The user asks about order 7.' } }),
    event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } }),
    event('content_block_stop', { index: 0 }),
    event('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Order 7 ' } }),
    event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'shipped.' } }),
    event('content_block_stop', { index: 1 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } }),
    event('message_stop', {}),
  ];
}

describe('LangChain ChatAnthropic, streamed with thinking', () => {
  it('records the dated model of message_start and the output tokens of message_delta', async () => {
    const DATED = 'claude-sonnet-4-6-20260217';
    provider.answer(() => ({ events: thinkingEvents(DATED, { input: 42, output: 3 }, 187) }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const model = new ChatAnthropic({
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant-fake-key',
      anthropicApiUrl: provider.url,
      maxRetries: 0,
      maxTokens: 2048,
      streaming: true,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    const reply = await model.invoke('Where is order 7?', { callbacks: [new NebulyCallbackHandler({ nebuly, endUser: 'user-1' })] });
    await nebuly.shutdown();

    expect(errors).toEqual([]);
    // What the provider received, and what it said: the model, and 187 output tokens in all.
    expect((provider.requests[0]!.body as { model: string; stream: boolean }).stream).toBe(true);
    expect(reply.additional_kwargs.model).toBe(DATED);
    const [step] = sent()[0]!.interactions[0]!.trace as Record<string, unknown>[];
    expect(step).toMatchObject({ model: DATED, output: 'Order 7 shipped.', input_tokens: 42, output_tokens: 187 });
  });
});
