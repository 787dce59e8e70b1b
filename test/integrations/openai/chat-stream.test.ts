import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIChatChunks } from '../../../examples/support/replies.js';
import { nebulyWithReference } from '../nebuly.js';
import { ANSWER, collect, MESSAGES, openai, provider, useFakeProvider } from './provider.js';

useFakeProvider();

describe('chat.completions.create, streamed', () => {
  const answerWithUsageWhenAsked = () =>
    provider.answer((request) => ({
      events: openAIChatChunks(ANSWER, {
        pieces: ['Order 7 ', 'shipped.'],
        withUsage: (request.body as { stream_options?: { include_usage?: boolean } }).stream_options?.include_usage === true,
      }),
    }));

  it('includeUsage asks for usage, records it, and gives the caller the stream it asked for', async () => {
    answerWithUsageWhenAsked();
    const { nebuly, sent } = nebulyWithReference();
    const params = { model: 'gpt-4o-mini', messages: MESSAGES, stream: true as const };
    const unwrapped = await collect(await openai().chat.completions.create(params));
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }, { includeUsage: true });
    const stream = await observed.chat.completions.create(params);
    // The loop of OpenAI's README, without the optional chaining: the usage-only chunk
    // (no choices) would make it throw; it is not passed on.
    let text = '';
    const chunks: unknown[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]!.delta.content ?? '';
    }

    expect(provider.requests[0]?.body).not.toHaveProperty('stream_options');
    expect(provider.requests[1]?.body).toMatchObject({ stream_options: { include_usage: true } });
    expect(text).toBe('Order 7 shipped.');
    // The very chunks of the unobserved call: no usage chunk, no `usage: null`.
    expect(chunks).toEqual(unwrapped);
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'Order 7 shipped.',
      trace: [{ model: 'gpt-4o-mini-2024-07-18', output: 'Order 7 shipped.', input_tokens: 21, output_tokens: 5 }],
    });
  });

  it('a caller that asked for usage itself still gets the usage chunk, as without observation', async () => {
    answerWithUsageWhenAsked();
    const { nebuly, sent } = nebulyWithReference();
    const params = { model: 'gpt-4o-mini', messages: MESSAGES, stream: true as const, stream_options: { include_usage: true } };
    const unwrapped = await collect(await openai().chat.completions.create(params));
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }, { includeUsage: true });
    const chunks = await collect(await observed.chat.completions.create(params));
    expect(chunks).toEqual(unwrapped);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 21, completion_tokens: 5 } });
    expect(chunks[0]).toHaveProperty('usage', null);
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ trace: [{ input_tokens: 21, output_tokens: 5 }] });
  });

  it('the chat.completions.stream() helper sees no chunk it did not ask for, and its final completion is the same', async () => {
    answerWithUsageWhenAsked();
    const { nebuly, sent } = nebulyWithReference();
    const params = { model: 'gpt-4o-mini', messages: MESSAGES };
    const plain = openai().chat.completions.stream(params);
    const plainChunks = await collect(plain);
    const plainFinal = await plain.finalChatCompletion();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }, { includeUsage: true });
    const helper = observed.chat.completions.stream(params);
    const chunks: unknown[] = [];
    helper.on('chunk', (chunk) => chunks.push(chunk));
    let text = '';
    helper.on('content', (delta) => (text += delta));
    const final = await helper.finalChatCompletion();
    expect(text).toBe('Order 7 shipped.');
    expect(chunks).toEqual(plainChunks);
    expect(final).toEqual(plainFinal);
    expect(provider.requests[1]?.body).toMatchObject({ stream_options: { include_usage: true } });
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ trace: [{ input_tokens: 21, output_tokens: 5 }] });
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
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Where is order 7?' });
    const observed = observeOpenAI(openai(), { turn });
    await collect(await observed.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, stream: true }));
    turn.end({ output: '' });
    await conversation.end();
    expect(sent()[0]?.interactions[0]?.trace).toMatchObject([{ output: 'get_order({"id":7})\nget_customer({"email":"a@b.c"})' }]);
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
