import {
  embed,
  embedMany,
  generateObject,
  generateText,
  stepCountIs,
  streamObject,
  streamText,
  wrapEmbeddingModel,
  wrapLanguageModel,
} from 'ai';
import { MockEmbeddingModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { nebulyMiddleware, nebulyTelemetry } from '../../src/integrations/ai-sdk/index.js';
import {
  answer,
  callTool,
  getOrder,
  mockModel,
  stream,
  streamedAnswer,
  streamedToolCall,
  usage,
} from './ai-sdk-fixtures.js';
import { nebulyWithReference } from './nebuly.js';

const SYSTEM = 'You are the support assistant of an online shop.';
const QUESTION = 'Where is my order 42?';
const ORDER = { orderId: '42', status: 'shipped', eta: '2026-11-25' };

describe('nebulyMiddleware', () => {
  it('generateText: one interaction with one LLM step: messages, the provider’s model, output, tokens', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = wrapLanguageModel({
      model: mockModel({ generate: [answer('It left on Monday.', usage(31, 7))] }),
      middleware: nebulyMiddleware({ conversation }),
    });

    const { text } = await generateText({ model, system: SYSTEM, prompt: QUESTION });
    await conversation.end();

    expect(text).toBe('It left on Monday.');
    expect(sent()[0]?.interactions).toMatchObject([
      {
        input: QUESTION,
        output: 'It left on Monday.',
        trace: [
          {
            model: 'gpt-4o-2024-08-06',
            messages: [
              { role: 'system', content: SYSTEM },
              { role: 'user', content: QUESTION },
            ],
            output: 'It left on Monday.',
            input_tokens: 31,
            output_tokens: 7,
          },
        ],
      },
    ]);
    expect(errors).toEqual([]);
  });

  it('streamText: every chunk reaches the caller; the step is recorded whole when the stream ends', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = wrapLanguageModel({
      model: mockModel({ stream: [stream(streamedAnswer(['It left ', 'on ', 'Monday.'], usage(30, 6)))] }),
      middleware: nebulyMiddleware({ conversation }),
    });

    const result = streamText({ model, prompt: QUESTION });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);
    await conversation.end();

    expect(chunks).toEqual(['It left ', 'on ', 'Monday.']);
    expect(sent()[0]?.interactions).toMatchObject([
      {
        input: QUESTION,
        output: 'It left on Monday.',
        trace: [{ model: 'gpt-4o-2024-08-06', output: 'It left on Monday.', input_tokens: 30, output_tokens: 6 }],
      },
    ]);
  });

  it('generateObject and streamObject: one LLM step each, the JSON answer as output', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const json = JSON.stringify(ORDER);
    const model = wrapLanguageModel({
      model: mockModel({
        generate: [answer(json)],
        stream: [stream(streamedAnswer([json.slice(0, 10), json.slice(10)]))],
      }),
      middleware: nebulyMiddleware({ conversation }),
    });
    const schema = z.object({ orderId: z.string(), status: z.string(), eta: z.string() });

    const generated = await generateObject({ model, schema, prompt: QUESTION });
    const streamed = streamObject({ model, schema, prompt: QUESTION });
    const partials: unknown[] = [];
    for await (const partial of streamed.partialObjectStream) partials.push(partial);
    expect(partials.at(-1)).toEqual(ORDER);
    expect(await streamed.object).toEqual(ORDER);
    expect(generated.object).toEqual(ORDER);
    await conversation.end();

    const interactions = sent()[0]?.interactions ?? [];
    expect(interactions.map((interaction) => interaction.trace)).toMatchObject([
      [{ model: 'gpt-4o-2024-08-06', output: json, messages: [{ role: 'user', content: QUESTION }] }],
      [{ model: 'gpt-4o-2024-08-06', output: json }],
    ]);
  });

  it('a stream the caller cancels is recorded with what arrived, marked incomplete', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = wrapLanguageModel({
      model: mockModel({ stream: [stream(streamedAnswer(['It left ', 'on ', 'Monday.']))] }),
      middleware: nebulyMiddleware({ conversation }),
    });

    const { stream: parts } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: QUESTION }] }] });
    const reader = parts.getReader();
    const seen: unknown[] = [];
    while (seen.length < 4) seen.push((await reader.read()).value); // up to the first text delta
    await reader.cancel('the user left');
    await conversation.end();

    expect(seen[3]).toEqual({ type: 'text-delta', id: 't1', delta: 'It left ' });
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'It left \n[nebuly: stream aborted, output incomplete]',
      trace: [{ model: 'gpt-4o-2024-08-06', output: 'It left \n[nebuly: stream aborted, output incomplete]' }],
    });
  });

  it('a stream never read: its place is left out when the conversation is sent, said once; manual steps kept', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: QUESTION });
    const model = wrapLanguageModel({
      model: mockModel({ stream: [stream(streamedAnswer(['It left ', 'on Monday.']))] }),
      middleware: nebulyMiddleware({ turn }),
    });

    await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: QUESTION }] }] }); // never read
    turn.retrieval({ source: 'orders', input: '42', outputs: ['shipped'] });
    turn.end({ output: 'It left on Monday.' });
    expect(await conversation.end()).toMatchObject({ status: 'delivered' });

    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ source: 'orders', input: '42', outputs: ['shipped'] }]);
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/^1 step\(s\) of interaction .* of conversation .* never finished/)]);
  });

  it('a model call that fails: the caller gets the provider’s error; the step and the interaction say so', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const failing = mockModel({});
    failing.doGenerate = () => Promise.reject(new Error('provider is down'));
    const model = wrapLanguageModel({ model: failing, middleware: nebulyMiddleware({ conversation }) });

    await expect(generateText({ model, prompt: QUESTION, maxRetries: 0 })).rejects.toThrow('provider is down');
    await conversation.end();
    const failed = '[nebuly: call failed (Error)]';
    expect(sent()[0]?.interactions).toMatchObject([
      { input: QUESTION, output: failed, trace: [{ model: 'gpt-4o', messages: [{ role: 'user', content: QUESTION }], output: failed }] },
    ]);
    expect(errors).toEqual([]);
  });

  it('{ turn }: model calls are steps of the caller’s turn, in call order with manual steps', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: QUESTION });
    const inner = mockModel({ stream: [stream(streamedAnswer(['Shipped.']), 5)] });
    const model = wrapLanguageModel({ model: inner, middleware: nebulyMiddleware({ turn }) });

    const result = streamText({ model, prompt: QUESTION });
    const reading = result.text;
    // The model call has started (an event, not a sleep that a loaded machine outruns).
    await vi.waitFor(() => expect(inner.doStreamCalls).toHaveLength(1), { timeout: 60_000 });
    turn.retrieval({ source: 'orders-db', input: '42', outputs: ['shipped'] });
    turn.end({ output: await reading });
    await conversation.end();

    expect(sent()[0]?.interactions).toMatchObject([
      { input: QUESTION, output: 'Shipped.', trace: [{ output: 'Shipped.' }, { source: 'orders-db' }] },
    ]);
  });

  it('embed and embedMany through wrapEmbeddingModel: one embedding step per call', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: QUESTION });
    const embedder = wrapEmbeddingModel({
      model: new MockEmbeddingModelV3({
        modelId: 'text-embedding-3-small',
        maxEmbeddingsPerCall: 10,
        doEmbed: async ({ values }) =>
          values.length === 1
            ? { embeddings: [[0.1, 0.2]], usage: { tokens: 6 }, warnings: [] }
            : { embeddings: [[0.3], [0.4]], usage: { tokens: 9 }, warnings: [] },
      }),
      middleware: nebulyMiddleware({ turn }),
    });

    const { embedding } = await embed({ model: embedder, value: QUESTION });
    const { embeddings } = await embedMany({ model: embedder, values: ['order 42', 'shipping times'] });
    turn.end({ output: 'done' });
    await conversation.end();

    expect(embedding).toEqual([0.1, 0.2]);
    expect(embeddings).toEqual([[0.3], [0.4]]);
    expect(sent()[0]?.interactions[0]?.trace).toEqual([
      { model: 'text-embedding-3-small', input: QUESTION, input_tokens: 6 },
      { model: 'text-embedding-3-small', input: 'order 42\nshipping times', input_tokens: 9 },
    ]);
  });

  it('a failed embedding call: the caller gets the error; no step, the interaction says it failed', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const embedder = wrapEmbeddingModel({
      model: new MockEmbeddingModelV3({ doEmbed: () => Promise.reject(new Error('quota exceeded')) }),
      middleware: nebulyMiddleware({ conversation }),
    });

    await expect(embed({ model: embedder, value: QUESTION, maxRetries: 0 })).rejects.toThrow('quota exceeded');
    await conversation.end();
    expect(sent()[0]?.interactions).toMatchObject([{ input: QUESTION, output: '[nebuly: call failed (Error)]', trace: [] }]);
  });

  it('never in the way: a recording the recorder refuses goes to onError; the caller’s calls are unchanged', async () => {
    const { nebuly, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: QUESTION });
    turn.end({ output: 'answered by hand' });
    await conversation.end(); // the turn can no longer take steps
    const model = wrapLanguageModel({
      model: mockModel({ generate: [answer('Shipped.')], stream: [stream(streamedAnswer(['Ship', 'ped.']))] }),
      middleware: nebulyMiddleware({ turn }),
    });

    expect((await generateText({ model, prompt: QUESTION })).text).toBe('Shipped.');
    expect(await streamText({ model, prompt: QUESTION, experimental_telemetry: { integrations: [nebulyTelemetry({ turn })] } }).text).toBe('Shipped.');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => /after it ended|already ended|ended: not recorded/.test(error.message))).toBe(true);
  });

  it('rejects a bad target at once, naming it', () => {
    expect(() => nebulyMiddleware({} as never)).toThrow(/the target has none of `turn`, `conversation`, `nebuly`/);
    expect(() => nebulyTelemetry({ turn: 'turn-1' } as never)).toThrow(/`target.turn` is not a Turn/);
  });
});

/** The trace a tool-calling run must produce, LLM step, tool, LLM step. */
const TOOL_RUN_TRACE = [
  {
    model: 'gpt-4o-2024-08-06',
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ],
    output: 'getOrder({"orderId":"42"})',
    input_tokens: 20,
    output_tokens: 8,
  },
  { source: 'getOrder', input: '{"orderId":"42"}', outputs: [JSON.stringify(ORDER)] },
  {
    model: 'gpt-4o-2024-08-06',
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
      { role: 'assistant', content: 'getOrder({"orderId":"42"})' },
      { role: 'tool', content: JSON.stringify(ORDER) },
    ],
    output: 'Order 42 has shipped; it arrives on 2026-11-25.',
    input_tokens: 40,
    output_tokens: 12,
  },
];

describe('nebulyTelemetry', () => {
  it('generateText with a tool: one interaction, LLM step, tool as retrieval step, LLM step, in order', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = mockModel({
      generate: [callTool('getOrder', { orderId: '42' }), answer('Order 42 has shipped; it arrives on 2026-11-25.', usage(40, 12))],
    });

    const { text, steps } = await generateText({
      model,
      system: SYSTEM,
      prompt: QUESTION,
      tools: { getOrder },
      stopWhen: stepCountIs(5),
      experimental_telemetry: { isEnabled: false, integrations: [nebulyTelemetry({ conversation })] },
    });
    await conversation.end();

    expect(steps).toHaveLength(2);
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({ input: QUESTION, output: text, trace: TOOL_RUN_TRACE }),
    ]);
    expect(errors).toEqual([]);
  });

  it('streamText with a tool: the same trace, recorded whole when the stream ends', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const model = mockModel({
      stream: [
        stream(streamedToolCall('getOrder', { orderId: '42' })),
        stream(streamedAnswer(['Order 42 has shipped; ', 'it arrives on 2026-11-25.'], usage(40, 12))),
      ],
    });

    const result = streamText({
      model,
      system: SYSTEM,
      prompt: QUESTION,
      tools: { getOrder },
      stopWhen: stepCountIs(5),
      experimental_telemetry: { integrations: [nebulyTelemetry({ nebuly, endUser: 'user-1' })] },
    });
    expect(await result.text).toBe('Order 42 has shipped; it arrives on 2026-11-25.');
    await nebuly.flush(); // a standalone call without a conversationId is sent when it ends

    expect(sent()).toEqual([
      {
        end_user: 'user-1',
        interactions: [expect.objectContaining({ input: QUESTION, output: await result.text, trace: TOOL_RUN_TRACE })],
      },
    ]);
  });

  it('a tool that throws is recorded with a mark that says so (its message may quote private data)', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = mockModel({ generate: [callTool('getOrder', { orderId: '42' }), answer('Sorry, I cannot look it up.')] });
    const broken = { ...getOrder, execute: () => Promise.reject(new Error('orders database is down')) };

    await generateText({
      model,
      prompt: QUESTION,
      tools: { getOrder: broken },
      stopWhen: stepCountIs(5),
      experimental_telemetry: { integrations: [nebulyTelemetry({ conversation })] },
    });
    await conversation.end();

    expect((sent()[0]?.interactions[0]?.trace as unknown[])[1]).toEqual({
      source: 'getOrder',
      input: '{"orderId":"42"}',
      outputs: ['[nebuly: call failed (Error)]'],
    });
  });

  it('a generation that throws: ai tells the integration nothing; the turn is sent as recorded when the conversation ends', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = mockModel({ generate: [callTool('getOrder', { orderId: '42' })] });
    const doGenerate = model.doGenerate.bind(model);
    let calls = 0;
    model.doGenerate = (options) => (++calls === 1 ? doGenerate(options) : Promise.reject(new Error('provider is down')));

    await expect(
      generateText({
        model,
        prompt: QUESTION,
        tools: { getOrder },
        stopWhen: stepCountIs(5),
        maxRetries: 0,
        experimental_telemetry: { integrations: [nebulyTelemetry({ conversation })] },
      }),
    ).rejects.toThrow('provider is down');
    await conversation.end();

    // The first step and its tool; the step that threw left no trace (no empty place either).
    expect(sent()[0]?.interactions).toMatchObject([
      { input: QUESTION, output: '', trace: [{ output: 'getOrder({"orderId":"42"})' }, { source: 'getOrder' }] },
    ]);
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/had not ended when conversation.end\(\) was called/)]);
  });

  it('concurrent runs with their own integrations never mix', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const run = (user: string, reply: string) =>
      streamText({
        model: mockModel({ stream: [stream(streamedAnswer(reply.split(' ').map((word) => `${word} `)), 1)] }),
        prompt: `question of ${user}`,
        experimental_telemetry: { integrations: [nebulyTelemetry({ nebuly, endUser: user })] },
      }).text;
    await Promise.all([run('alice', 'one two three'), run('bob', 'four five six')]);
    await nebuly.flush();

    const byUser = Object.fromEntries(sent().map((c) => [c.end_user, c.interactions]));
    expect(byUser.alice).toMatchObject([{ input: 'question of alice', output: 'one two three ', trace: [{ output: 'one two three ' }] }]);
    expect(byUser.bob).toMatchObject([{ input: 'question of bob', output: 'four five six ', trace: [{ output: 'four five six ' }] }]);
  });

  it('one integration reused for a call while another is open: reported, and the open one ends as recorded', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const shared = nebulyTelemetry({ conversation });
    const failing = mockModel({});
    failing.doGenerate = () => Promise.reject(new Error('provider is down'));
    await expect(
      generateText({ model: failing, prompt: 'first', maxRetries: 0, experimental_telemetry: { integrations: [shared] } }),
    ).rejects.toThrow('provider is down');
    await generateText({ model: mockModel({ generate: [answer('ok')] }), prompt: 'second', experimental_telemetry: { integrations: [shared] } });
    await conversation.end();

    expect(sent()[0]?.interactions).toMatchObject([
      { input: 'first', output: '', trace: [] },
      { input: 'second', output: 'ok', trace: [{ output: 'ok' }] },
    ]);
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/pass a new nebulyTelemetry\(target\) to each call/)]);
  });
});

describe('nebulyMiddleware and nebulyTelemetry together', () => {
  it('a tool-calling run: each model call recorded once, the run one interaction', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    const model = wrapLanguageModel({
      model: mockModel({
        generate: [callTool('getOrder', { orderId: '42' }), answer('Order 42 has shipped; it arrives on 2026-11-25.', usage(40, 12))],
      }),
      middleware: nebulyMiddleware(target),
    });

    await generateText({
      model,
      system: SYSTEM,
      prompt: QUESTION,
      tools: { getOrder },
      stopWhen: stepCountIs(5),
      experimental_telemetry: { integrations: [nebulyTelemetry(target)] },
    });
    await nebuly.shutdown();

    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toEqual([expect.objectContaining({ input: QUESTION, trace: TOOL_RUN_TRACE })]);
  });

  it('a run without tools, streamed: recorded once; the same model used alone is still recorded', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = wrapLanguageModel({
      model: mockModel({ stream: [stream(streamedAnswer(['Hello!'])), stream(streamedAnswer(['Bye!']))] }),
      middleware: nebulyMiddleware({ conversation }),
    });

    await streamText({ model, prompt: 'Hi', experimental_telemetry: { integrations: [nebulyTelemetry({ conversation })] } }).text;
    await streamText({ model, prompt: 'Bye' }).text;
    await conversation.end();

    expect(sent()[0]?.interactions).toMatchObject([
      { input: 'Hi', output: 'Hello!', trace: [{ output: 'Hello!' }] },
      { input: 'Bye', output: 'Bye!', trace: [{ output: 'Bye!' }] },
    ]);
    expect(sent()[0]?.interactions.map((interaction) => (interaction.trace as unknown[]).length)).toEqual([1, 1]);
  });
});

describe('nebulyMiddleware and nebulyTelemetry together, a message with an image', () => {
  it('recorded once: calls are told apart by the words of the user message, which both sides read alike', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = wrapLanguageModel({ model: mockModel({ generate: [answer('A receipt.')] }), middleware: nebulyMiddleware({ conversation }) });

    await generateText({
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', image: new Uint8Array([137, 80, 78, 71]), mediaType: 'image/png' },
          ],
        },
      ],
      experimental_telemetry: { integrations: [nebulyTelemetry({ conversation })] },
    });
    await conversation.end();

    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: 'What is this?\n[image]',
        output: 'A receipt.',
        trace: [expect.objectContaining({ messages: [{ role: 'user', content: 'What is this?\n[image]' }], output: 'A receipt.' })],
      }),
    ]);
  });
});

describe('serverless', () => {
  it('waitUntil(nebuly.flush()): what the function recorded is delivered before it is frozen', async () => {
    const { nebuly, reference, sent } = nebulyWithReference();
    reference.faults.add({ delayMs: 50 }); // a real network takes its time
    const pending: Promise<unknown>[] = [];
    const waitUntil = (promise: Promise<unknown>) => void pending.push(promise);

    // The route handler: answers, and hands the delivery to the platform.
    async function handler(question: string) {
      const model = wrapLanguageModel({
        model: mockModel({ generate: [answer('Shipped.')] }),
        middleware: nebulyMiddleware({ nebuly, endUser: 'user-1' }),
      });
      const { text } = await generateText({ model, prompt: question });
      waitUntil(nebuly.flush());
      return text;
    }

    expect(await handler(QUESTION)).toBe('Shipped.');
    expect(sent()).toEqual([]); // recorded, not yet sent: the platform must wait for it
    await Promise.all(pending);
    expect(sent()).toMatchObject([{ end_user: 'user-1', interactions: [{ input: QUESTION, output: 'Shipped.' }] }]);
    expect(reference.requests.all()).toHaveLength(1);
  });
});
