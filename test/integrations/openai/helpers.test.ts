import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIChatCompletion } from '../../../examples/support/replies.js';
import { nebulyWithReference } from '../nebuly.js';
import { openai, provider, useFakeProvider } from './provider.js';

useFakeProvider();

describe('helpers that call create', () => {
  it('runTools(): each model call of the tool loop is a step, the tool run a retrieval step between them', async () => {
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
      { source: 'get_order', input: '{"id":7}', outputs: ['shipped'] },
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
