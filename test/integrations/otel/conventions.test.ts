/**
 * Spans in each convention the processor reads, built by hand with the real OTel SDK (the
 * instrumentations that emit them need Python, other runtimes or live providers): the
 * OTel GenAI semantic conventions, OpenInference, OpenLLMetry. What reached the server.
 */
import { type Attributes, context, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { NebulySpanProcessor } from 'nebuly-client/otel';
import { NebulyClient } from 'nebuly-client';
import { tracing } from './tracing.js';

/** Runs `body` inside a span of `name` with `attributes`, ended after it (attributes at end added). */
async function span<T>(tracer: Tracer, name: string, attributes: Attributes, body: () => Promise<T> | T = () => undefined as T, atEnd: Attributes = {}): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (current) => {
    try {
      return await body();
    } finally {
      current.setAttributes(atEnd);
      current.end();
    }
  });
}

const genAiChat = (question: string, answer: string, tokens: [number, number]): Attributes => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'gpt-4.1',
  'gen_ai.response.model': 'gpt-4.1-2025-04-14',
  'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
  'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: question }] }]),
  'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' }]),
  'gen_ai.usage.input_tokens': tokens[0],
  'gen_ai.usage.output_tokens': tokens[1],
});

describe('the OTel GenAI semantic conventions', () => {
  it('an agent run with a model call, a tool run, a retrieval and an embedding: one interaction, steps in start order', async () => {
    const { tracer, sent, nebuly, errors } = tracing();
    await span(tracer, 'invoke_agent Shop', { 'gen_ai.operation.name': 'invoke_agent', 'user.id': 'user-1', 'gen_ai.conversation.id': 'conv-1' }, async () => {
      await span(tracer, 'embeddings text-embedding-3-small', { 'gen_ai.operation.name': 'embeddings', 'gen_ai.request.model': 'text-embedding-3-small', 'gen_ai.usage.input_tokens': 4 }, undefined, {});
      await span(tracer, 'retrieval orders', {
        'gen_ai.operation.name': 'retrieval',
        'gen_ai.data_source.id': 'orders-index',
        'gen_ai.retrieval.query.text': 'order 7',
        'gen_ai.retrieval.documents': JSON.stringify(['order 7: shipped']),
      });
      await span(tracer, 'chat gpt-4.1', genAiChat('Where is order 7?', 'Let me check.', [30, 4]));
      await span(tracer, 'execute_tool get_order', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_order', 'gen_ai.tool.call.arguments': '{"id":7}', 'gen_ai.tool.call.result': '{"status":"shipped"}' });
      await span(tracer, 'chat gpt-4.1', genAiChat('Where is order 7?', 'It shipped.', [40, 3]));
    });
    await nebuly.shutdown();
    expect(errors).toEqual([]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.end_user).toBe('user-1');
    // No embedded text in the GenAI conventions: the embedding call's content was not captured.
    expect(sent()[0]?.interactions).toMatchObject([
      {
        input: 'Where is order 7?',
        output: 'It shipped.',
        trace: [
          { source: 'orders-index', input: 'order 7', outputs: ['order 7: shipped'] },
          {
            model: 'gpt-4.1-2025-04-14',
            messages: [
              { role: 'system', content: 'Be brief.' },
              { role: 'user', content: 'Where is order 7?' },
            ],
            output: 'Let me check.',
            input_tokens: 30,
            output_tokens: 4,
          },
          { source: 'get_order', input: '{"id":7}', outputs: ['{"status":"shipped"}'] },
          { output: 'It shipped.', input_tokens: 40, output_tokens: 3 },
        ],
      },
    ]);
  });

  it('a lone model call is an interaction of one LLM step; a failed tool run says so', async () => {
    const { tracer, sent, nebuly } = tracing();
    await span(tracer, 'chat gpt-4.1', { ...genAiChat('Hi', 'Hello!', [3, 2]), 'user.id': 'user-1' });
    await tracer.startActiveSpan('invoke_agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'user.id': 'user-2' } }, async (root) => {
      await tracer.startActiveSpan('execute_tool lookup', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup' } }, (tool) => {
        tool.setStatus({ code: SpanStatusCode.ERROR, message: 'timed out' });
        tool.end();
      });
      root.end();
    });
    await nebuly.shutdown();
    const byUser = Object.fromEntries(sent().map((conversation) => [conversation.end_user, conversation.interactions[0]]));
    expect(byUser['user-1']).toMatchObject({ input: 'Hi', output: 'Hello!', trace: [{ output: 'Hello!' }] });
    expect(byUser['user-2']?.trace).toEqual([{ source: 'lookup', input: '', outputs: ['[nebuly: call failed (timed out)]'] }]);
  });

  it('an agent span whose output holds every message of the run: the output is its last assistant text', async () => {
    const { tracer, sent, nebuly } = tracing();
    const outputs = [
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_order', arguments: { id: 7 } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'shipped' }] },
      { role: 'assistant', parts: [{ type: 'text', content: 'It shipped.' }], finish_reason: 'stop' },
    ];
    await span(tracer, 'invoke_agent', { 'gen_ai.operation.name': 'invoke_agent', 'user.id': 'user-1' }, () => span(tracer, 'chat', genAiChat('Where is order 7?', 'It shipped.', [3, 2])), {
      'gen_ai.output.messages': JSON.stringify(outputs),
    });
    await nebuly.shutdown();
    expect(sent()[0]?.interactions[0]).toMatchObject({ input: 'Where is order 7?', output: 'It shipped.' });
  });

  it('spans of other kinds between AI spans (an HTTP request) do not split the interaction', async () => {
    const { tracer, sent, nebuly } = tracing();
    await span(tracer, 'invoke_agent', { 'gen_ai.operation.name': 'invoke_agent', 'user.id': 'user-1' }, () =>
      span(tracer, 'POST /v1/chat', { 'http.request.method': 'POST' }, () => span(tracer, 'chat', genAiChat('Hi', 'Hello!', [3, 2]))),
    );
    await nebuly.shutdown();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Hi', output: 'Hello!', trace: [{ output: 'Hello!' }] }]);
  });
});

describe('OpenInference', () => {
  it('an agent with an LLM span (flattened messages and tool calls), a tool and a retriever', async () => {
    const { tracer, sent, nebuly } = tracing();
    await span(tracer, 'Agent', { 'openinference.span.kind': 'AGENT', 'input.value': 'Where is order 7?', 'user.id': 'user-1', 'session.id': 'sess-1' }, async () => {
      await span(tracer, 'Retriever', { 'openinference.span.kind': 'RETRIEVER', 'input.value': 'order 7', 'retrieval.documents.0.document.content': 'order 7: shipped', 'retrieval.documents.1.document.content': 'order 8: pending' });
      await span(tracer, 'ChatOpenAI', {
        'openinference.span.kind': 'LLM',
        'llm.model_name': 'gpt-4o',
        'llm.input_messages.0.message.role': 'system',
        'llm.input_messages.0.message.content': 'Be brief.',
        'llm.input_messages.1.message.role': 'user',
        'llm.input_messages.1.message.contents.0.message_content.text': 'Where is order 7?',
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'notify',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"id":7}',
        'llm.token_count.prompt': 25,
        'llm.token_count.completion': 6,
      });
      await span(tracer, 'notify', { 'openinference.span.kind': 'TOOL', 'tool.name': 'notify', 'input.value': '{"id":7}', 'output.value': 'sent' });
    }, { 'output.value': 'It shipped; you will be notified.' });
    await nebuly.shutdown();
    expect(sent()[0]?.interactions).toMatchObject([
      {
        input: 'Where is order 7?',
        output: 'It shipped; you will be notified.',
        trace: [
          { source: 'Retriever', input: 'order 7', outputs: ['order 7: shipped', 'order 8: pending'] },
          {
            model: 'gpt-4o',
            messages: [
              { role: 'system', content: 'Be brief.' },
              { role: 'user', content: 'Where is order 7?' },
            ],
            output: 'notify({"id":7})',
            input_tokens: 25,
            output_tokens: 6,
          },
          { source: 'notify', input: '{"id":7}', outputs: ['sent'] },
        ],
      },
    ]);
  });

  it('an embedding span: the texts, one a line', async () => {
    const { tracer, sent, nebuly } = tracing();
    await span(tracer, 'Embedding', {
      'openinference.span.kind': 'EMBEDDING',
      'embedding.model_name': 'text-embedding-3-small',
      'embedding.embeddings.0.embedding.text': 'order 7',
      'embedding.embeddings.1.embedding.text': 'shipping',
      'llm.token_count.prompt': 5,
      'user.id': 'user-1',
    });
    await nebuly.shutdown();
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ model: 'text-embedding-3-small', input: 'order 7\nshipping', input_tokens: 5 }]);
  });
});

describe('OpenLLMetry', () => {
  it('a workflow with a chat span: association properties name the user and the session', async () => {
    const { tracer, sent, nebuly } = tracing();
    const association = { 'traceloop.association.properties.user_id': 'user-1', 'traceloop.association.properties.session_id': 'sess-1' };
    for (const question of ['Hi', 'Thanks']) {
      await span(tracer, 'support.workflow', { 'traceloop.span.kind': 'workflow', 'traceloop.entity.input': JSON.stringify({ question }), ...association }, () =>
        span(tracer, 'openai.chat', {
          'llm.request.type': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.response.model': 'gpt-4o-2024-08-06',
          'gen_ai.prompt.0.role': 'user',
          'gen_ai.prompt.0.content': question,
          'gen_ai.completion.0.role': 'assistant',
          'gen_ai.completion.0.content': `re: ${question}`,
          'gen_ai.usage.prompt_tokens': 9,
          'gen_ai.usage.completion_tokens': 2,
          ...association,
        }),
      );
    }
    await nebuly.shutdown();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toMatchObject([
      { input: 'Hi', output: 're: Hi', trace: [{ model: 'gpt-4o-2024-08-06', messages: [{ role: 'user', content: 'Hi' }], output: 're: Hi', input_tokens: 9, output_tokens: 2 }] },
      { input: 'Thanks', output: 're: Thanks' },
    ]);
  });
});

describe('who and which conversation', () => {
  it('custom resolvers: called with the outermost AI span first, then the spans below it', async () => {
    const seen: string[] = [];
    const { tracer, sent, nebuly } = tracing({
      endUser: (current) => {
        seen.push(current.name);
        return current.attributes['app.customer'] as string | undefined;
      },
      conversationId: () => {
        throw new Error('a resolver that throws counts as no answer');
      },
    });
    await span(tracer, 'root', { 'gen_ai.operation.name': 'invoke_agent' }, () => span(tracer, 'chat', { ...genAiChat('Hi', 'Hello!', [1, 1]), 'app.customer': 'customer-9' }));
    await nebuly.shutdown();
    expect(seen).toEqual(['root', 'chat']);
    expect(sent()[0]?.end_user).toBe('customer-9');
  });

  it('a trace without an end user is not recorded, and told once at info', async () => {
    const { tracer, sent, nebuly, info, errors } = tracing();
    await span(tracer, 'chat', genAiChat('Hi', 'Hello!', [1, 1]));
    await span(tracer, 'chat', genAiChat('Hi again', 'Hello!', [1, 1]));
    await nebuly.shutdown();
    expect(sent()).toEqual([]);
    expect(errors).toEqual([]);
    expect(info.filter((line) => line.includes('no end user'))).toHaveLength(1);
  });
});

describe('the processor itself', () => {
  it('is an OpenTelemetry SpanProcessor; forceFlush sends what was recorded, shutdown shuts the client down', async () => {
    const { tracer, sent, processor, provider } = tracing();
    const asProcessor: SpanProcessor = processor;
    expect(typeof asProcessor.onEnd).toBe('function');
    await span(tracer, 'chat', { ...genAiChat('Hi', 'Hello!', [1, 1]), 'user.id': 'user-1' });
    await provider.forceFlush();
    expect(sent()).toHaveLength(1);
    await provider.shutdown();
    await span(tracer, 'chat', { ...genAiChat('Hi', 'Hello!', [1, 1]), 'user.id': 'user-1' });
    expect(sent()).toHaveLength(1);
  });

  it('never throws into the tracer: a span it cannot read goes to onError', () => {
    const { processor, errors } = tracing();
    const broken = { name: 'x', spanContext: () => { throw new Error('no context'); }, attributes: {}, startTime: [0, 0], endTime: [0, 0] } as const;
    expect(() => processor.onStart(broken)).not.toThrow();
    expect(() => processor.onEnd(broken)).not.toThrow();
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining('nebuly-client/otel: recording a span failed: no context'),
      expect.stringContaining('nebuly-client/otel: recording a span failed: no context'),
    ]);
  });

  it('attributes that are not what they claim (JSON that is not) record what can be read', async () => {
    const { tracer, sent, nebuly, errors } = tracing();
    await span(tracer, 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': '{not json', 'gen_ai.output.messages': '[{"role":"assistant","parts":[{"type":"text","content":"ok"}]}]', 'user.id': 'user-1' });
    await nebuly.shutdown();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ model: 'unknown', messages: [], output: 'ok' }]);
  });

  it('bad options are a TypeError naming the option', () => {
    const nebuly = new NebulyClient({ apiKey: 'test-key', baseUrl: 'http://127.0.0.1:9' });
    // @ts-expect-error: no client
    expect(() => new NebulySpanProcessor({})).toThrow(/`nebuly` must be a NebulyClient/);
    // @ts-expect-error: not a function
    expect(() => new NebulySpanProcessor({ nebuly, endUser: 'user-1' })).toThrow(/`endUser`, when given, must be a function/);
    expect(() => new NebulySpanProcessor({ nebuly, maxOpenSpans: 0 })).toThrow(/`maxOpenSpans`/);
  });

  it('spans never ended are let go past maxOpenSpans: what they held is recorded on its own', async () => {
    for (const [maxOpenSpans, recorded] of [[2, 1], [10, 0]] as const) {
      const { tracer, sent, nebuly } = tracing({ maxOpenSpans });
      // An agent span that never ends, then more spans that never end.
      const agent = tracer.startSpan('agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
      const parent = trace.setSpan(context.active(), agent);
      for (let index = 0; index < 3; index += 1) tracer.startSpan(`leak ${index}`);
      tracer.startSpan('chat', { attributes: { ...genAiChat('Hi', 'Hello!', [1, 1]), 'user.id': 'user-1' } }, parent).end();
      await nebuly.flush();
      // Past the bound the agent was let go: the call is recorded at once; within it, it waits for the agent.
      expect(sent()).toHaveLength(recorded);
      await nebuly.shutdown();
    }
  });
});
