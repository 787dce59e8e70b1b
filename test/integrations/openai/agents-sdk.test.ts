/**
 * The OpenAI Agents SDK, whose OpenAI client is set once per process
 * (`setDefaultOpenAIClient`): recorded per user with `nebuly.withConversation`, one
 * interaction per user message, its tool runs as retrieval steps. The recipe of
 * docs/integrations.md ("The OpenAI Agents SDK"), run as written, against a local server
 * speaking the Responses API.
 */
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { currentInteractionId, endConversation, observeOpenAI } from 'nebuly-client/openai';
import { nebulyWithReference } from '../nebuly.js';
import { openai, provider, useFakeProvider } from './provider.js';

useFakeProvider();

/** The fake model: asks for get_order, then answers with its result. */
function answeringWithTool(): void {
  provider.answer((request) => {
    const { input } = request.body as { input: { type?: string; role?: string; content?: unknown; output?: unknown }[] };
    const last = input.at(-1);
    const base = { object: 'response', created_at: 1_700_000_000, status: 'completed', model: 'gpt-4.1-2025-04-14', usage: { input_tokens: 20, output_tokens: 6, total_tokens: 26 } };
    if (last?.type === 'function_call_output') {
      const text = `Your order: ${JSON.stringify(last.output)}`;
      return { json: { ...base, id: `resp_${Math.random()}`, output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }] } };
    }
    return { json: { ...base, id: `resp_${Math.random()}`, output: [{ type: 'function_call', id: 'fc_1', call_id: `call_${Math.random()}`, name: 'get_order', arguments: '{"id":"42"}', status: 'completed' }] } };
  });
}

describe('the OpenAI Agents SDK with nebuly.withConversation', () => {
  it('one observed client for the process; each user’s run is one interaction with its tool run, in their own conversation', async () => {
    answeringWithTool();
    const { nebuly, sent, errors } = nebulyWithReference();
    setTracingDisabled(true); // the test has no network; tracing is the Agents SDK's own business

    // The recipe:
    setDefaultOpenAIClient(observeOpenAI(openai())); // once per process, no target

    const getOrder = tool({
      name: 'get_order',
      description: 'Looks an order up',
      parameters: z.object({ id: z.string() }),
      execute: async ({ id }) => `order ${id}: shipped`,
    });
    const agent = new Agent({ name: 'Support', instructions: 'You help with orders.', tools: [getOrder] });

    async function chat(userHash: string, chatId: string, message: string) {
      return nebuly.withConversation({ endUser: userHash, conversationId: chatId }, async () => {
        const result = await run(agent, message);
        return { answer: result.finalOutput, interactionId: currentInteractionId() };
      });
    }

    const [alice, bob] = await Promise.all([chat('alice', 'chat-a', 'Where is order 42?'), chat('bob', 'chat-b', 'And my order 42?')]);
    await endConversation({ nebuly, endUser: 'alice', conversationId: 'chat-a' });
    await endConversation({ nebuly, endUser: 'bob', conversationId: 'chat-b' });
    await nebuly.flush();

    expect(errors).toEqual([]);
    expect(alice.answer).toBe('Your order: "order 42: shipped"');
    expect(alice.interactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bob.interactionId).not.toBe(alice.interactionId);
    const byUser = new Map(sent().map((conversation) => [conversation.end_user, conversation.interactions]));
    for (const [user, question] of [['alice', 'Where is order 42?'], ['bob', 'And my order 42?']] as const) {
      expect(byUser.get(user)).toEqual([
        expect.objectContaining({
          input: question,
          output: 'Your order: "order 42: shipped"',
          trace: [
            expect.objectContaining({ model: 'gpt-4.1-2025-04-14', output: 'get_order({"id":"42"})' }),
            { source: 'get_order', input: '{"id":"42"}', outputs: ['order 42: shipped'] },
            expect.objectContaining({ output: 'Your order: "order 42: shipped"' }),
          ],
        }),
      ]);
    }
  });
});
