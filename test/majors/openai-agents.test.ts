/**
 * The OpenAI Agents SDK (@openai/agents, newest; Node 22+) recorded through its own
 * tracing by NebulyAgentsProcessor, the real SDK against a fake OpenAI server on loopback:
 * one interaction per user message, tool runs as retrieval steps, handoffs visible.
 */
import OpenAI from 'openai';
import { Agent, run, setDefaultOpenAIClient, setTraceProcessors, setTracingDisabled, tool, withTrace } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NebulyAgentsProcessor } from 'nebuly-client/openai-agents';
import { type FakeLLMServer, startFakeLLMServer } from '../../examples/support/fake-llm-server.js';
import { nebulyWithReference } from './nebuly.js';

let provider: FakeLLMServer;
const replies: unknown[] = [];
beforeAll(async () => {
  provider = await startFakeLLMServer(() => ({ json: replies.shift() ?? { error: { message: 'not scripted' } } }));
  setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-fake-key', baseURL: `${provider.url}/v1`, maxRetries: 0 }));
  // The Agents SDK turns its tracing off when NODE_ENV is 'test' (as vitest sets it).
  setTracingDisabled(false);
});
afterAll(() => provider.close());

const response = (id: string, output: unknown[]) => ({
  id,
  object: 'response',
  created_at: 1_700_000_000,
  status: 'completed',
  model: 'gpt-4.1-2025-04-14',
  output,
  usage: { input_tokens: 10, output_tokens: 3, total_tokens: 13 },
});
const functionCall = (id: string, name: string, args: string) => ({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name, arguments: args, status: 'completed' });
const message = (text: string) => ({ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });

const getOrder = tool({ name: 'get_order', description: 'Looks an order up', parameters: z.object({ id: z.number() }), execute: async ({ id }) => `order ${id}: shipped` });
const orders = new Agent({ name: 'Orders', instructions: 'You handle orders.', tools: [getOrder] });
const triage = new Agent({ name: 'Triage', instructions: 'Route the user.', handoffs: [orders] });

describe('NebulyAgentsProcessor', () => {
  it('two user messages: two interactions of one conversation; the tool run and the handoff are steps', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    setTraceProcessors([new NebulyAgentsProcessor({ nebuly })]);
    replies.push(
      response('r1', [functionCall('1', 'transfer_to_Orders', '{}')]),
      response('r2', [functionCall('2', 'get_order', '{"id":7}')]),
      response('r3', [message('Order 7 has shipped.')]),
    );
    const first = await withTrace('Support', () => run(triage, 'Where is order 7?'), { groupId: 'chat-1', metadata: { user_id: 'user-1' } });
    expect(first.finalOutput).toBe('Order 7 has shipped.');
    replies.push(response('r4', [message('You are welcome.')]));
    await withTrace('Support', () => run(triage, 'Thanks!'), { groupId: 'chat-1', metadata: { user_id: 'user-1' } });
    await nebuly.shutdown();

    expect(errors).toEqual([]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.end_user).toBe('user-1');
    const [asked, thanked] = sent()[0]?.interactions ?? [];
    expect(asked).toMatchObject({
      input: 'Where is order 7?',
      output: 'Order 7 has shipped.',
      trace: [
        { model: 'gpt-4.1-2025-04-14', messages: [{ role: 'user', content: 'Where is order 7?' }], output: 'transfer_to_Orders({})', input_tokens: 10, output_tokens: 3 },
        { source: 'handoff', input: 'Triage', outputs: ['Orders'] },
        { model: 'gpt-4.1-2025-04-14', output: 'get_order({"id":7})' },
        { source: 'get_order', input: '{"id":7}', outputs: ['order 7: shipped'] },
        { model: 'gpt-4.1-2025-04-14', output: 'Order 7 has shipped.' },
      ],
    });
    expect(asked?.trace).toHaveLength(5);
    expect(thanked).toMatchObject({ input: 'Thanks!', output: 'You are welcome.', trace: [{ output: 'You are welcome.' }] });
    // The span times: the run's start is not after its end.
    expect(Date.parse(asked?.time_start as string)).toBeLessThanOrEqual(Date.parse(asked?.time_end as string));
  });

  it('a tool that throws is a step that says so', async () => {
    const { nebuly, sent } = nebulyWithReference();
    setTraceProcessors([new NebulyAgentsProcessor({ nebuly })]);
    const failing = tool({ name: 'lookup', description: 'fails', parameters: z.object({}), execute: async () => { throw new Error('database down'); } });
    const agent = new Agent({ name: 'Solo', instructions: 'Help.', tools: [failing] });
    replies.push(response('r5', [functionCall('5', 'lookup', '{}')]), response('r6', [message('Sorry, try later.')]));
    await withTrace('Support', () => run(agent, 'Status?'), { metadata: { user_id: 'user-2' } });
    await nebuly.shutdown();
    const trace = (sent()[0]?.interactions[0]?.trace ?? []) as { source?: string; outputs?: string[] }[];
    const step = trace.find((recorded) => recorded.source === 'lookup');
    expect(step?.outputs?.[0]).toMatch(/database down|call failed/);
  });

  it('a run without an end user is not recorded', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    setTraceProcessors([new NebulyAgentsProcessor({ nebuly })]);
    replies.push(response('r7', [message('Hi.')]));
    await run(new Agent({ name: 'Solo', instructions: 'Help.' }), 'Hi');
    await nebuly.shutdown();
    expect(sent()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
