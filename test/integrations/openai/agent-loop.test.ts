/**
 * An app's tool loop through a wrapped OpenAI client: one interaction per user message,
 * the tool runs as retrieval steps between the model calls (issue 18, items 1 and 2).
 * The first test runs the recipe of docs/integrations.md ("Agent loops"), three times.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIChatChunks, openAIChatCompletion } from '../../../examples/support/replies.js';
import { nebulyWithReference } from '../nebuly.js';
import { openai, provider, useFakeProvider } from './provider.js';

useFakeProvider();

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

const TOOLS: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_order', parameters: { type: 'object', properties: { id: { type: 'number' } } } } },
  { type: 'function', function: { name: 'get_customer', parameters: { type: 'object', properties: { id: { type: 'number' } } } } },
];

/** The app's tools: what they return for the arguments the model wrote. */
function runTool(name: string, args: string): string {
  return `${name}: ${args} ok`;
}

describe('a streamed chat with parallel tool calls', () => {
  it('three user messages are three interactions, each with its two tool runs between its two model calls', async () => {
    // The model asks for two tools in parallel when the last message is the user's, and answers once it has their results.
    provider.answer((request) => {
      const messages = (request.body as { messages: ChatMessage[] }).messages;
      const last = messages.at(-1);
      const question = [...messages].reverse().find((message) => message.role === 'user')?.content as string;
      return last?.role === 'tool'
        ? { events: openAIChatChunks({ model: 'gpt-4o-2024-08-06', text: `Answer to ${question}` }, { withUsage: true }) }
        : {
            events: openAIChatChunks(
              { model: 'gpt-4o-2024-08-06', toolCalls: [{ name: 'get_order', arguments: { id: 7 } }, { name: 'get_customer', arguments: { id: 3 } }] },
              { withUsage: true },
            ),
          };
    });
    const { nebuly, sent, errors } = nebulyWithReference();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    const client = observeOpenAI(openai(), target, { includeUsage: true });

    const history: ChatMessage[] = [{ role: 'system', content: 'You are a shop assistant.' }];
    for (const question of ['Where is order 7?', 'And the customer?', 'Thanks!']) {
      history.push({ role: 'user', content: question });
      for (;;) {
        const completion = await client.chat.completions.stream({ model: 'gpt-4o', messages: history, tools: TOOLS }).finalChatCompletion();
        const message = completion.choices[0]!.message;
        history.push(message as ChatMessage);
        if (message.tool_calls === undefined || message.tool_calls.length === 0) break;
        for (const call of message.tool_calls) {
          if (call.type !== 'function') continue;
          history.push({ role: 'tool', tool_call_id: call.id, content: runTool(call.function.name, call.function.arguments) });
        }
      }
    }
    const { endConversation } = await import('nebuly-client/openai');
    await endConversation(target);
    await nebuly.flush();

    expect(errors).toEqual([]);
    expect(sent()).toHaveLength(1);
    const interactions = sent()[0]!.interactions;
    expect(interactions.map((interaction) => [interaction.input, interaction.output])).toEqual([
      ['Where is order 7?', 'Answer to Where is order 7?'],
      ['And the customer?', 'Answer to And the customer?'],
      ['Thanks!', 'Answer to Thanks!'],
    ]);
    for (const interaction of interactions) {
      expect(interaction.trace).toMatchObject([
        { model: 'gpt-4o-2024-08-06', output: 'get_order({"id":7})\nget_customer({"id":3})', input_tokens: 0 },
        { source: 'get_order', input: '{"id":7}', outputs: ['get_order: {"id":7} ok'] },
        { source: 'get_customer', input: '{"id":3}', outputs: ['get_customer: {"id":3} ok'] },
        { model: 'gpt-4o-2024-08-06', output: `Answer to ${interaction.input as string}` },
      ]);
    }
  });
});

describe('a loop left before its answer', () => {
  it('endConversation({ conversation }) ends the interaction awaiting tools with the text it had, not as open', async () => {
    provider.answer(() => openAIChatCompletion({ model: 'gpt-4o', text: 'Let me check.', toolCalls: [{ name: 'get_order', arguments: { id: 7 } }] }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    await observeOpenAI(openai(), { conversation }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Where is order 7?' }] });
    const { endConversation } = await import('nebuly-client/openai');
    expect(await endConversation({ conversation })).toMatchObject({ status: 'delivered' });
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({ input: 'Where is order 7?', output: 'Let me check.', trace: [expect.objectContaining({ output: 'Let me check.\nget_order({"id":7})' })] }),
    ]);
  });
});

describe('an embedding call inside a tool (RAG)', () => {
  it('is a step of the interaction awaiting the tool, which goes on', async () => {
    provider.answer((request) => {
      if (request.path.endsWith('/embeddings')) {
        return { json: { object: 'list', model: 'text-embedding-3-small', data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }], usage: { prompt_tokens: 3, total_tokens: 3 } } };
      }
      const messages = (request.body as { messages: ChatMessage[] }).messages;
      return messages.at(-1)?.role === 'tool'
        ? openAIChatCompletion({ model: 'gpt-4o', text: 'Ships in 2 days.' })
        : openAIChatCompletion({ model: 'gpt-4o', toolCalls: [{ name: 'search', arguments: { q: 'shipping' } }] });
    });
    const { nebuly, sent } = nebulyWithReference();
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const messages: ChatMessage[] = [{ role: 'user', content: 'How long is shipping?' }];
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages });
    const call = first.choices[0]!.message.tool_calls![0]!;
    await client.embeddings.create({ model: 'text-embedding-3-small', input: 'shipping' }); // the tool searches
    messages.push(first.choices[0]!.message as ChatMessage, { role: 'tool', tool_call_id: call.id, content: 'Orders ship within 2 days.' });
    await client.chat.completions.create({ model: 'gpt-4o', messages });
    await nebuly.flush();

    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: 'How long is shipping?',
        output: 'Ships in 2 days.',
        trace: [
          expect.objectContaining({ output: 'search({"q":"shipping"})' }),
          { model: 'text-embedding-3-small', input: 'shipping', input_tokens: 3 },
          { source: 'search', input: '{"q":"shipping"}', outputs: ['Orders ship within 2 days.'] },
          expect.objectContaining({ output: 'Ships in 2 days.' }),
        ],
      }),
    ]);
  });
});

describe('the Responses API with previous_response_id', () => {
  const response = (id: string, output: unknown[]) => ({
    json: { id, object: 'response', created_at: 1_700_000_000, status: 'completed', model: 'gpt-4.1-2025-04-14', output, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
  });
  const text = (id: string, words: string) => ({ type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: words, annotations: [] }] });

  it('a follow-up records the whole conversation so far, its input is the user message, the tool run a step', async () => {
    provider.answer((_request, index) =>
      [
        response('resp_1', [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_order', arguments: '{"id":7}', status: 'completed' }]),
        response('resp_2', [text('msg_2', 'Order 7 shipped.')]),
        response('resp_3', [text('msg_3', 'On Monday.')]),
      ][index]!,
    );
    const { nebuly, sent, errors } = nebulyWithReference();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    // Each request of the chat observes the shared client anew, as the docs recommend.
    const first = await observeOpenAI(openai(), target).responses.create({ model: 'gpt-4.1', instructions: 'Be brief.', input: 'Where is order 7?' });
    const second = await observeOpenAI(openai(), target).responses.create({
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: 'call_1', output: 'shipped' }],
    });
    await observeOpenAI(openai(), target).responses.create({ model: 'gpt-4.1', instructions: 'Be brief.', previous_response_id: second.id, input: 'When?' });
    const { endConversation } = await import('nebuly-client/openai');
    await endConversation(target);
    await nebuly.flush();

    expect(errors).toEqual([]);
    const [one, two] = sent()[0]!.interactions;
    expect(one).toMatchObject({
      input: 'Where is order 7?',
      output: 'Order 7 shipped.',
      trace: [
        { output: 'get_order({"id":7})', messages: [{ role: 'system' }, { role: 'user', content: 'Where is order 7?' }] },
        { source: 'get_order', input: '{"id":7}', outputs: ['shipped'] },
        {
          output: 'Order 7 shipped.',
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Where is order 7?' },
            { role: 'assistant', content: 'get_order({"id":7})' },
            { role: 'tool', content: 'shipped' },
          ],
        },
      ],
    });
    expect(two).toMatchObject({
      input: 'When?',
      output: 'On Monday.',
      trace: [
        {
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Where is order 7?' },
            { role: 'assistant', content: 'get_order({"id":7})' },
            { role: 'tool', content: 'shipped' },
            { role: 'assistant', content: 'Order 7 shipped.' },
            { role: 'user', content: 'When?' },
          ],
        },
      ],
    });
  });

  it('a streamed response is kept too: its follow-up continues the interaction with the whole history', async () => {
    const call = { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'get_order', arguments: '{"id":9}', status: 'completed' };
    const first = { id: 'resp_s1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-4.1-2025-04-14', output: [call], usage: { input_tokens: 8, output_tokens: 4, total_tokens: 12 } };
    provider.answer((_request, index) =>
      index === 0
        ? {
            events: [
              { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response: { ...first, status: 'in_progress', output: [], usage: null } } },
              { event: 'response.output_item.done', data: { type: 'response.output_item.done', sequence_number: 1, output_index: 0, item: call } },
              { event: 'response.completed', data: { type: 'response.completed', sequence_number: 2, response: first } },
            ],
          }
        : response('resp_s2', [text('msg_s2', 'Order 9 shipped.')]),
    );
    const { nebuly, sent } = nebulyWithReference();
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    const stream = await client.responses.create({ model: 'gpt-4.1', input: 'Where is order 9?', stream: true });
    for await (const event of stream) void event;
    await client.responses.create({ model: 'gpt-4.1', previous_response_id: 'resp_s1', input: [{ type: 'function_call_output', call_id: 'call_9', output: 'shipped' }] });
    await nebuly.flush();
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: 'Where is order 9?',
        output: 'Order 9 shipped.',
        trace: [
          expect.objectContaining({ output: 'get_order({"id":9})' }),
          { source: 'get_order', input: '{"id":9}', outputs: ['shipped'] },
          expect.objectContaining({
            messages: [
              { role: 'user', content: 'Where is order 9?' },
              { role: 'assistant', content: 'get_order({"id":9})' },
              { role: 'tool', content: 'shipped' },
            ],
          }),
        ],
      }),
    ]);
  });
});
