import OpenAI, { APIError, APIPromise, RateLimitError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { type FakeLLMServer, startFakeLLMServer } from '../../examples/support/fake-llm-server.js';
import { openAIChatChunks, openAIChatCompletion } from '../../examples/support/replies.js';
import { nebulyWithReference } from './nebuly.js';

let provider: FakeLLMServer;
beforeAll(async () => {
  provider = await startFakeLLMServer(() => ({ status: 500, json: { error: { message: 'not scripted' } } }));
});
afterAll(() => provider.close());
beforeEach(() => {
  provider.requests.length = 0;
});

const openai = (maxRetries = 0) => new OpenAI({ apiKey: 'sk-fake-key', baseURL: `${provider.url}/v1`, maxRetries });

const MESSAGES = [
  { role: 'user' as const, content: 'Where is order 7?' },
  { role: 'system' as const, content: 'You are a shop assistant.' },
];
const ANSWER = { model: 'gpt-4o-mini-2024-07-18', text: 'Order 7 shipped.', inputTokens: 21, outputTokens: 5 };

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const chunks: T[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('chat.completions.create, not streamed', () => {
  it('gives the caller what the unwrapped client gives, and records one interaction', async () => {
    provider.answer(() => openAIChatCompletion(ANSWER));
    const { nebuly, sent, errors } = nebulyWithReference();
    const plain = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });

    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const observed = observeOpenAI(openai(), { conversation });
    const completion = await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    expect(completion).toEqual(plain);
    await conversation.end();

    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toEqual([
      {
        input: 'Where is order 7?',
        output: 'Order 7 shipped.',
        time_start: expect.any(String),
        time_end: expect.any(String),
        trace: [
          {
            model: 'gpt-4o-mini-2024-07-18',
            messages: [
              { role: 'system', content: 'You are a shop assistant.' },
              { role: 'user', content: 'Where is order 7?' },
            ],
            output: 'Order 7 shipped.',
            input_tokens: 21,
            output_tokens: 5,
          },
        ],
        feedback_actions: [],
      },
    ]);
    expect(JSON.stringify(sent())).not.toContain('sk-fake-key');
  });

  it('returns the SDK’s own APIPromise: .withResponse() and .asResponse() work', async () => {
    provider.answer(() => ({ ...openAIChatCompletion(ANSWER), headers: { 'x-request-id': 'req_1' } }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });

    const promise = observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    expect(promise).toBeInstanceOf(APIPromise);
    const { data, response, request_id } = await promise.withResponse();
    expect(data.choices[0]?.message.content).toBe('Order 7 shipped.');
    expect(response.status).toBe(200);
    expect(request_id).toBe('req_1');

    // The raw response alone: the caller parses it, so no step is recorded for it; the
    // call's own interaction keeps its input, with an empty output.
    const raw = await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES }).asResponse();
    expect(await raw.json()).toMatchObject({ id: 'chatcmpl-fake' });
    await nebuly.flush();
    expect(sent().map((conversation) => conversation.interactions[0])).toMatchObject([
      { output: 'Order 7 shipped.', trace: [{ output: 'Order 7 shipped.' }] },
      { input: 'Where is order 7?', output: '', trace: [] },
    ]);
  });

  it('maps tool calls and tool results: history roles, the calls as text', async () => {
    provider.answer(() => openAIChatCompletion({ model: 'gpt-4o', toolCalls: [{ name: 'get_order', arguments: { id: 7 } }] }));
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Where is order 7?' });
    const observed = observeOpenAI(openai(), { turn });
    const completion = await observed.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What about this one?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'found x' },
      ],
    });
    expect(completion.choices[0]?.message.tool_calls).toHaveLength(1);
    turn.end({ output: 'Checking.' });
    await conversation.end();

    expect(sent()[0]?.interactions[0]?.trace).toEqual([
      {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'What about this one?\n[image]' },
          { role: 'assistant', content: 'lookup({"q":"x"})' },
          { role: 'tool', content: 'found x' },
        ],
        output: 'get_order({"id":7})',
        input_tokens: 0,
        output_tokens: 0,
      },
    ]);
  });

  it('a provider error reaches the caller as the SDK’s own error; the step says the call failed', async () => {
    provider.answer(() => ({ status: 429, json: { error: { message: 'slow down', type: 'rate_limit' } } }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const failure = observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    await expect(failure).rejects.toBeInstanceOf(RateLimitError);
    await expect(failure).rejects.toMatchObject({ status: 429 });
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'Where is order 7?',
      output: '[nebuly: call failed (429 RateLimitError)]',
      trace: [{ model: 'gpt-4o-mini', output: '[nebuly: call failed (429 RateLimitError)]' }],
    });
  });

  it('keeps the SDK’s retries: a 500 then a 200 is one call, recorded once', async () => {
    provider.answer((_request, index) =>
      index === 0 ? { status: 500, json: { error: { message: 'oops' } }, headers: { 'retry-after-ms': '1' } } : openAIChatCompletion(ANSWER),
    );
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(1), { nebuly, endUser: 'user-1' });
    const completion = await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    expect(completion.choices[0]?.message.content).toBe('Order 7 shipped.');
    expect(provider.requests).toHaveLength(2);
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 7 shipped.' });
  });

  it('an instrumentation fault goes to onError; the call goes on untouched', async () => {
    provider.answer(() => openAIChatCompletion(ANSWER));
    const { nebuly, errors } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    // The SDK sends `toJSON()`; reading `role` for the record throws.
    const hostile = {
      toJSON: () => ({ role: 'user', content: 'Hi' }),
      get role(): 'user' {
        throw new Error('role unreadable');
      },
      content: 'Hi',
    };
    const completion = await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: [hostile] });
    expect(completion.choices[0]?.message.content).toBe('Order 7 shipped.');
    expect(provider.requests[0]?.body).toMatchObject({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(errors.map((error) => error.message)).toEqual([
      'nebuly-client integration: reading the request: role unreadable (the observed call itself was not affected)',
    ]);
  });
});

describe('chat.completions.create, streamed', () => {
  it('passes every chunk through unchanged; includeUsage asks for usage, the caller sees the usage chunk', async () => {
    provider.answer((request) =>
      ({
        events: openAIChatChunks(ANSWER, {
          pieces: ['Order 7 ', 'shipped.'],
          withUsage: (request.body as { stream_options?: { include_usage?: boolean } }).stream_options?.include_usage === true,
        }),
      }),
    );
    const { nebuly, sent } = nebulyWithReference();
    const params = { model: 'gpt-4o-mini', messages: MESSAGES, stream: true as const };
    const unwrapped = await collect(await openai().chat.completions.create(params));
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }, { includeUsage: true });
    const chunks = await collect(await observed.chat.completions.create(params));

    expect(provider.requests[0]?.body).not.toHaveProperty('stream_options');
    expect(provider.requests[1]?.body).toMatchObject({ stream_options: { include_usage: true } });
    // The same chunks, plus the final usage chunk with no choices.
    expect(chunks.slice(0, -1)).toEqual(unwrapped);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 21, completion_tokens: 5 } });
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'Order 7 shipped.',
      trace: [{ model: 'gpt-4o-mini-2024-07-18', output: 'Order 7 shipped.', input_tokens: 21, output_tokens: 5 }],
    });
  });

  it('without includeUsage the request is left as it is, and the step has no token counts', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER) }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await collect(await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true }));
    expect(provider.requests[0]?.body).not.toHaveProperty('stream_options');
    await nebuly.flush();
    const [step] = (sent()[0]?.interactions[0]?.trace ?? []) as Record<string, unknown>[];
    expect(step).toMatchObject({ output: 'Order 7 shipped.' });
    expect(step).not.toHaveProperty('input_tokens');
  });

  it('includeUsage keeps an include_usage the caller set, even false', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER) }));
    const { nebuly } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }, { includeUsage: true });
    await collect(
      await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true, stream_options: { include_usage: false } }),
    );
    expect(provider.requests[0]?.body).toMatchObject({ stream_options: { include_usage: false } });
    await nebuly.shutdown();
  });

  it('a tee()d stream gives both branches every chunk and is recorded once', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER, { pieces: ['Order 7 ', 'shipped.'] }) }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const [left, right] = (await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true })).tee();
    const [a, b] = await Promise.all([collect(left), collect(right)]);
    expect(a).toEqual(b);
    expect(a.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Order 7 shipped.');
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 7 shipped.' });
  });

  it('merges tool-call deltas by index', async () => {
    provider.answer(() => ({
      events: openAIChatChunks({
        model: 'gpt-4o',
        toolCalls: [
          { name: 'get_order', arguments: { id: 7 } },
          { name: 'get_customer', arguments: { email: 'a@b.c' } },
        ],
      }),
    }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await collect(await observed.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, stream: true }));
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'get_order({"id":7})\nget_customer({"email":"a@b.c"})',
    });
  });

  it('the chat.completions.stream() helper is observed once, its events intact', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER, { pieces: ['Order 7 ', 'shipped.'], withUsage: true }) }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const deltas: string[] = [];
    const runner = observed.chat.completions.stream({ model: 'gpt-4o-mini', messages: MESSAGES });
    runner.on('content', (delta) => deltas.push(delta));
    expect(await runner.finalContent()).toBe('Order 7 shipped.');
    expect(deltas).toEqual(['Order 7 ', 'shipped.']);
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions[0]).toMatchObject({ trace: [{ output: 'Order 7 shipped.', input_tokens: 21 }] });
  });

  it('an abort mid-stream records the partial output, marked', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER, { pieces: ['Order 7 ', 'ship', 'ped.'] }), hangAfter: 3 }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const stream = await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true });
    let seen = '';
    for await (const chunk of stream) {
      seen += chunk.choices[0]?.delta.content ?? '';
      if (seen === 'Order 7 ship') stream.controller.abort();
    }
    expect(seen).toBe('Order 7 ship');
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]',
      trace: [{ output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]' }],
    });
  });

  it('leaving the loop early (break) is an abort too', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER, { pieces: ['Order 7 ', 'shipped.'] }), hangAfter: 2 }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    for await (const chunk of await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true })) {
      if (chunk.choices[0]?.delta.content === 'Order 7 ') break;
    }
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 7 \n[nebuly: stream aborted, output incomplete]' });
  });

  it('an error in the stream reaches the caller as the SDK’s error; the partial output is marked failed', async () => {
    const events = openAIChatChunks(ANSWER, { pieces: ['Order 7 '] }).slice(0, 2);
    events.push({ data: { error: { message: 'overloaded', type: 'server_error' } } });
    provider.answer(() => ({ events }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const stream = await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true });
    await expect(collect(stream)).rejects.toBeInstanceOf(APIError);
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 7 \n[nebuly: stream failed (APIError), output incomplete]' });
  });
});

describe('responses.create', () => {
  const response = {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    model: 'gpt-4.1-2025-04-14',
    output: [
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Shipped.', annotations: [] }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'notify', arguments: '{"id":7}', status: 'completed' },
    ],
    usage: { input_tokens: 30, output_tokens: 9, total_tokens: 39 },
  };

  it('plain: instructions first, the output text and calls, the usage', async () => {
    provider.answer(() => ({ json: response }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const result = await observed.responses.create({
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Where is order 7?' }] },
        { type: 'function_call_output', call_id: 'call_0', output: 'order 7: shipped' },
      ],
    });
    expect(result.output_text).toBe('Shipped.'); // the SDK's own addition still there
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'Where is order 7?',
      output: 'Shipped.\nnotify({"id":7})',
      trace: [
        {
          model: 'gpt-4.1-2025-04-14',
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Where is order 7?' },
            { role: 'tool', content: 'order 7: shipped' },
          ],
          input_tokens: 30,
          output_tokens: 9,
        },
      ],
    });
  });

  it('streamed: the events pass through; the step comes from response.completed', async () => {
    const events = [
      { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } } },
      { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Ship', logprobs: [] } },
      { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'ped.', logprobs: [] } },
      { event: 'response.completed', data: { type: 'response.completed', sequence_number: 3, response } },
    ];
    provider.answer(() => ({ events }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const received = await collect(await observed.responses.create({ model: 'gpt-4.1', input: 'Where is order 7?', stream: true }));
    expect(received.map((event) => event.type)).toEqual(events.map((event) => event.event));
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'Where is order 7?',
      output: 'Shipped.\nnotify({"id":7})',
      trace: [{ messages: [{ role: 'user', content: 'Where is order 7?' }], input_tokens: 30 }],
    });
  });
});

describe('helpers that call create', () => {
  it('runTools(): each model call of the tool loop is a step, the tool result in the second one’s history', async () => {
    provider.answer((_request, index) =>
      index === 0
        ? openAIChatCompletion({ model: 'gpt-4o', toolCalls: [{ name: 'get_order', arguments: { id: 7 } }] })
        : openAIChatCompletion({ model: 'gpt-4o', text: 'Order 7 shipped.' }),
    );
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Where is order 7?' });
    const observed = observeOpenAI(openai(), { turn });
    const runner = observed.chat.completions.runTools({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Where is order 7?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_order',
            description: 'Looks an order up',
            parameters: { type: 'object', properties: { id: { type: 'number' } } },
            function: () => 'shipped',
            parse: JSON.parse,
          },
        },
      ],
    });
    expect(await runner.finalContent()).toBe('Order 7 shipped.');
    turn.end({ output: 'Order 7 shipped.' });
    await conversation.end();
    expect(sent()[0]?.interactions[0]?.trace).toMatchObject([
      { output: 'get_order({"id":7})' },
      {
        messages: [
          { role: 'user', content: 'Where is order 7?' },
          { role: 'assistant', content: 'get_order({"id":7})' },
          { role: 'tool', content: 'shipped' },
        ],
        output: 'Order 7 shipped.',
      },
    ]);
  });

  it('responses.stream(): an abort keeps the text so far, marked', async () => {
    provider.answer(() => ({
      events: [
        { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', model: 'gpt-4.1-2025-04-14', output: [], status: 'in_progress' } } },
        { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', sequence_number: 1, item_id: 'm', output_index: 0, content_index: 0, delta: 'Ship', logprobs: [] } },
      ],
      hangAfter: 2,
    }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const stream = observed.responses.stream({ model: 'gpt-4.1', input: 'Where is order 7?' });
    stream.on('response.output_text.delta', () => stream.abort());
    await expect(stream.finalResponse()).rejects.toThrow();
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'Where is order 7?',
      output: 'Ship\n[nebuly: stream aborted, output incomplete]',
      trace: [{ model: 'gpt-4.1-2025-04-14' }],
    });
  });
});

describe('embeddings.create', () => {
  const vectors = [
    [0.5, -0.25, 1],
    [0.125, 2, -1],
  ];
  const base64 = (vector: number[]) => Buffer.from(new Float32Array(vector).buffer).toString('base64');

  it('the caller still gets decoded vectors (base64 on the wire); one step with every input', async () => {
    provider.answer((request) => {
      const asBase64 = (request.body as { encoding_format?: string }).encoding_format === 'base64';
      return {
        json: {
          object: 'list',
          model: 'text-embedding-3-small',
          data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: asBase64 ? base64(vector) : vector })),
          usage: { prompt_tokens: 8, total_tokens: 8 },
        },
      };
    });
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Find order 7' });
    const observed = observeOpenAI(openai(), { turn });
    const result = await observed.embeddings.create({ model: 'text-embedding-3-small', input: ['order 7', 'shipping'] });
    expect(provider.requests[0]?.body).toMatchObject({ encoding_format: 'base64' });
    expect(result.data.map((item) => item.embedding)).toEqual(vectors);
    turn.end({ output: 'Found.' });
    await conversation.end();
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ model: 'text-embedding-3-small', input: 'order 7\nshipping', input_tokens: 8 }]);
  });
  it('a failed embedding call records no step; its turn says why', async () => {
    provider.answer(() => ({ status: 400, json: { error: { message: 'input too long', type: 'invalid_request_error' } } }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await expect(observed.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).rejects.toMatchObject({ status: 400 });
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ input: 'x', output: '[nebuly: call failed (400 BadRequestError)]', trace: [] });
  });
});

describe('targets', () => {
  it('two users at once, streams interleaved: each conversation holds only its own call', async () => {
    provider.answer((request) => {
      const question = (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
      return { events: openAIChatChunks({ model: 'gpt-4o', text: `answer to ${question}` }, { pieces: ['answer ', 'to ', question] }) };
    });
    const { nebuly, sent } = nebulyWithReference();
    const alice = observeOpenAI(openai(), { nebuly, endUser: 'alice' });
    const bob = observeOpenAI(openai(), { nebuly, endUser: 'bob' });
    const ask = async (client: OpenAI, question: string) => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: question }], stream: true });
      let text = '';
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        await new Promise((resolve) => setImmediate(resolve)); // let the other stream run
      }
      return text;
    };
    expect(await Promise.all([ask(alice, 'A?'), ask(bob, 'B?')])).toEqual(['answer to A?', 'answer to B?']);
    await nebuly.flush();
    const byUser = Object.fromEntries(sent().map((c) => [c.end_user, c.interactions.map((i) => [i.input, i.output])]));
    expect(byUser).toEqual({ alice: [['A?', 'answer to A?']], bob: [['B?', 'answer to B?']] });
  });

  it('{ turn }: a streamed step and manual steps keep call order', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER) }));
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Where is order 7?' });
    const observed = observeOpenAI(openai(), { turn });
    const stream = await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true });
    turn.retrieval({ source: 'orders', input: 'order 7', outputs: ['shipped'] }); // while the answer streams
    await collect(stream);
    turn.end({ output: 'Order 7 shipped.' });
    await conversation.end();
    expect(sent()[0]?.interactions[0]?.trace).toMatchObject([{ output: 'Order 7 shipped.' }, { source: 'orders' }]);
  });

  it('withOptions() gives a client observed the same way', async () => {
    provider.answer(() => openAIChatCompletion(ANSWER));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }).withOptions({ timeout: 5_000 });
    await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
  });

  it('a bad target is refused at once, naming the field', () => {
    expect(() => observeOpenAI(openai(), { nebuly: {} } as never)).toThrow(/`target.nebuly` is not a NebulyClient/);
  });
});
