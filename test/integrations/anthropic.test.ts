import Anthropic, { APIError, APIPromise, InternalServerError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { observeAnthropic } from 'nebuly-client/anthropic';
import { anthropicEvents, anthropicMessage } from '../../examples/support/replies.js';
import { collect, provider, useFakeProvider } from '../helpers/fake-provider.js';
import { nebulyWithReference } from './nebuly.js';

useFakeProvider({ status: 500, json: { type: 'error', error: { type: 'api_error', message: 'not scripted' } } });

const anthropic = (maxRetries = 0) => new Anthropic({ apiKey: 'sk-ant-fake-key', baseURL: provider.url, maxRetries });

const PARAMS = {
  model: 'claude-test-model',
  max_tokens: 256,
  system: 'You are a shop assistant.',
  messages: [{ role: 'user' as const, content: 'Where is order 7?' }],
};
const ANSWER = { model: 'claude-test-model-20260101', text: 'Order 7 shipped.', inputTokens: 25, outputTokens: 6 };

describe('messages.create, not streamed', () => {
  it('gives the caller what the unwrapped client gives, and records one interaction', async () => {
    provider.answer(() => anthropicMessage(ANSWER));
    const { nebuly, sent, errors } = nebulyWithReference();
    const plain = await anthropic().messages.create(PARAMS);
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const observed = observeAnthropic(anthropic(), { conversation });
    const message = await observed.messages.create(PARAMS);
    expect(message).toEqual(plain);
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
            model: 'claude-test-model-20260101',
            messages: [
              { role: 'system', content: 'You are a shop assistant.' },
              { role: 'user', content: 'Where is order 7?' },
            ],
            output: 'Order 7 shipped.',
            input_tokens: 25,
            output_tokens: 6,
          },
        ],
        feedback_actions: [],
      },
    ]);
    expect(JSON.stringify(sent())).not.toContain('sk-ant-fake-key');
  });

  it('returns the SDK’s own APIPromise: .withResponse() works', async () => {
    provider.answer(() => ({ ...anthropicMessage(ANSWER), headers: { 'request-id': 'req_1' } }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    const promise = observed.messages.create(PARAMS);
    expect(promise).toBeInstanceOf(APIPromise);
    const { data, response } = await promise.withResponse();
    expect(data.content[0]).toMatchObject({ type: 'text', text: 'Order 7 shipped.' });
    expect(response.headers.get('request-id')).toBe('req_1');
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
  });

  it('maps tool use and tool results; prompt-cache tokens count as input', async () => {
    provider.answer(() => {
      const reply = anthropicMessage({ model: 'claude-test-model', text: 'Order 7 shipped.' });
      const json = reply as { json: { usage: Record<string, number> } };
      json.json.usage = { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 12 };
      return reply;
    });
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    await observed.messages.create({
      ...PARAMS,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Where is order 7?' }, { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'found x' }] }] },
      ],
    });
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toEqual(
      expect.objectContaining({
        input: 'Where is order 7?\n[image]',
        output: 'Order 7 shipped.',
        trace: [
          // The tool result the request ends with, as the run of the tool that was asked for.
          { source: 'lookup', input: '{"q":"x"}', outputs: ['found x'] },
          {
            model: 'claude-test-model',
            messages: [
              { role: 'system', content: 'Be brief.' },
              { role: 'user', content: 'Where is order 7?\n[image]' },
              { role: 'assistant', content: 'lookup({"q":"x"})' },
              { role: 'tool', content: 'found x' },
            ],
            output: 'Order 7 shipped.',
            input_tokens: 1110,
            output_tokens: 12,
          },
        ],
      }),
    );
  });

  it('a provider error reaches the caller as the SDK’s own error class; the step says so', async () => {
    provider.answer(() => ({ status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    const failure = observed.messages.create(PARAMS);
    await expect(failure).rejects.toBeInstanceOf(InternalServerError);
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: '[nebuly: call failed (529 OverloadedError)]' });
  });
});

describe('streams', () => {
  it('create({ stream: true }): events pass through unchanged; usage from message_start and message_delta', async () => {
    provider.answer(() => ({ events: anthropicEvents(ANSWER, { pieces: ['Order 7 ', 'shipped.'] }) }));
    const { nebuly, sent } = nebulyWithReference();
    const unwrapped = await collect(await anthropic().messages.create({ ...PARAMS, stream: true }));
    const observed = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    const events = await collect(await observed.messages.create({ ...PARAMS, stream: true }));
    expect(events).toEqual(unwrapped);
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'Order 7 shipped.',
      trace: [{ model: 'claude-test-model-20260101', output: 'Order 7 shipped.', input_tokens: 25, output_tokens: 6 }],
    });
  });

  it('messages.stream(): the helper works as before; a tool loop is one interaction, its tool run a retrieval step', async () => {
    provider.answer((_request, index) =>
      index === 0
        ? { events: anthropicEvents({ ...ANSWER, toolCalls: [{ name: 'get_order', arguments: { id: 7, full: true } }] }, { pieces: ['Let me ', 'check.'] }) }
        : anthropicMessage(ANSWER),
    );
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    const texts: string[] = [];
    const stream = observed.messages.stream(PARAMS).on('text', (text) => texts.push(text));
    const final = await stream.finalMessage();
    expect(texts).toEqual(['Let me ', 'check.']);
    expect(final.content[1]).toMatchObject({ type: 'tool_use', input: { id: 7, full: true } });
    await nebuly.flush();
    expect(sent()).toHaveLength(0); // the answer asked for a tool: the interaction goes on
    await observed.messages.create({
      ...PARAMS,
      messages: [
        ...PARAMS.messages,
        { role: 'assistant', content: final.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'order 7: shipped' }] },
      ],
    });
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toHaveLength(1);
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'Order 7 shipped.',
      trace: [
        { output: 'Let me check.\nget_order({"id":7,"full":true})', input_tokens: 25, output_tokens: 6 },
        { source: 'get_order', input: '{"id":7,"full":true}', outputs: ['order 7: shipped'] },
        { output: 'Order 7 shipped.' },
      ],
    });
  });

  it('an abort mid-stream (stream.abort()) records the partial output, marked', async () => {
    provider.answer(() => ({ events: anthropicEvents(ANSWER, { pieces: ['Order 7 ', 'ship', 'ped.'] }), hangAfter: 4 }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    const stream = observed.messages.stream(PARAMS);
    let seen = '';
    stream.on('text', (text) => {
      seen += text;
      if (seen === 'Order 7 ship') stream.abort();
    });
    await expect(stream.done()).rejects.toThrow();
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({
      output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]',
      trace: [{ input_tokens: 25, output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]' }],
    });
  });

  it('leaving a create({ stream: true }) loop early records the partial output, marked', async () => {
    provider.answer(() => ({ events: anthropicEvents(ANSWER, { pieces: ['Order 7 ', 'ship', 'ped.'] }), hangAfter: 4 }));
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Where is order 7?' });
    const observed = observeAnthropic(anthropic(), { turn });
    for await (const event of await observed.messages.create({ ...PARAMS, stream: true })) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta' && event.delta.text === 'ship') break;
    }
    turn.end({ output: 'Order 7 ship…' });
    await conversation.end();
    expect(sent()[0]?.interactions[0]?.trace).toMatchObject([{ output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]', input_tokens: 25 }]);
  });

  it('an error event in the stream reaches the caller as the SDK’s error; the partial output is marked failed', async () => {
    const events = anthropicEvents(ANSWER, { pieces: ['Order 7 '] }).slice(0, 3);
    events.push({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    provider.answer(() => ({ events }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    await expect(collect(await observed.messages.create({ ...PARAMS, stream: true }))).rejects.toBeInstanceOf(APIError);
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]?.output).toMatch(/^Order 7 \n\[nebuly: stream failed \(.*Error\), output incomplete\]$/);
  });

  it('two users at once: each conversation holds only its own call', async () => {
    provider.answer((request) => {
      const question = (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
      return { events: anthropicEvents({ model: 'claude-test-model', text: '' }, { pieces: ['answer ', 'to ', question] }) };
    });
    const { nebuly, sent } = nebulyWithReference();
    const ask = (endUser: string, question: string) =>
      observeAnthropic(anthropic(), { nebuly, endUser, conversationId: 'chat-1' })
        .messages.stream({ model: 'claude-test-model', max_tokens: 64, messages: [{ role: 'user', content: question }] })
        .finalText();
    expect(await Promise.all([ask('alice', 'A?'), ask('bob', 'B?'), ask('alice', 'A2?')])).toEqual([
      'answer to A?',
      'answer to B?',
      'answer to A2?',
    ]);
    await nebuly.shutdown();
    const byUser = Object.fromEntries(sent().map((c) => [c.end_user, c.interactions.map((i) => [i.input, i.output])]));
    expect(byUser).toEqual({
      alice: [
        ['A?', 'answer to A?'],
        ['A2?', 'answer to A2?'],
      ],
      bob: [['B?', 'answer to B?']],
    });
  });
});
