import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIResponse } from '../../../examples/support/replies.js';
import { nebulyWithReference } from '../nebuly.js';
import { collect, openai, provider, useFakeProvider } from './provider.js';

useFakeProvider();

describe('responses.create', () => {
  const response = openAIResponse({ model: 'gpt-4.1-2025-04-14', text: 'Shipped.', inputTokens: 30, outputTokens: 9 });

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
      output: 'Shipped.',
      trace: [
        // A result of a call this process never saw: a tool run all the same.
        { source: 'tool', input: '', outputs: ['order 7: shipped'] },
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
      output: 'Shipped.',
      trace: [{ messages: [{ role: 'user', content: 'Where is order 7?' }], input_tokens: 30 }],
    });
  });
});
