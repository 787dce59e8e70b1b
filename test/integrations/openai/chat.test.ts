import { APIPromise, RateLimitError } from 'openai';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIChatCompletion } from '../../../examples/support/replies.js';
import { nebulyWithReference } from '../nebuly.js';
import { ANSWER, MESSAGES, openai, provider, useFakeProvider } from './provider.js';

useFakeProvider();

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
    // Two conversations, sent concurrently: they may reach the server in either order.
    const firsts = sent()
      .map((conversation) => conversation.interactions[0])
      .sort((a, b) => String(b?.output ?? '').localeCompare(String(a?.output ?? '')));
    expect(firsts).toMatchObject([
      { output: 'Order 7 shipped.', trace: [{ output: 'Order 7 shipped.' }] },
      { input: 'Where is order 7?', output: '', trace: [] },
    ]);
  });

  it('maps tool calls and tool results: history roles, the calls as text, the tool run as a retrieval step', async () => {
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
      // The tool result the request ends with: the run of the tool the history asked for.
      { source: 'lookup', input: '{"q":"x"}', outputs: ['found x'] },
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
