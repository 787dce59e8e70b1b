/**
 * NebulyAgentsProcessor with traces and spans shaped as @openai/agents hands them over
 * (the SDK itself needs Node 22: test/majors/openai-agents.test.ts runs it for real).
 */
import { describe, expect, it } from 'vitest';
import { NebulyAgentsProcessor, type AgentsSpan, type AgentsTrace } from 'nebuly-client/openai-agents';
import { nebulyWithReference } from '../nebuly.js';

const span = (traceId: string, at: number, spanData: AgentsSpan['spanData'], error: AgentsSpan['error'] = null): AgentsSpan => ({
  traceId,
  startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString(),
  endedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, at + 1)).toISOString(),
  error,
  spanData,
});

async function runTrace(processor: NebulyAgentsProcessor, trace: AgentsTrace, spans: AgentsSpan[]) {
  await processor.onTraceStart(trace);
  for (const ended of spans) await processor.onSpanEnd(ended);
  await processor.onTraceEnd(trace);
}

describe('NebulyAgentsProcessor', () => {
  it('resolvers: the end user and the conversation from the trace; metadata.conversation_id without a group', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const processor = new NebulyAgentsProcessor({ nebuly, endUser: (trace) => trace.metadata?.customer as string | undefined });
    for (const traceId of ['t1', 't2']) {
      await runTrace(processor, { traceId, groupId: null, metadata: { customer: 'customer-9', conversation_id: 'conv-1' } }, [
        span(traceId, 0, { type: 'generation', model: 'gpt-4o', input: [{ role: 'user', content: `question ${traceId}` }], output: [{ role: 'assistant', content: `answer ${traceId}` }], usage: { input_tokens: 5, output_tokens: 2 } }),
      ]);
    }
    await nebuly.shutdown();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.end_user).toBe('customer-9');
    expect(sent()[0]?.interactions).toMatchObject([
      {
        input: 'question t1',
        output: 'answer t1',
        time_start: '2026-01-01T00:00:00.000Z',
        time_end: '2026-01-01T00:00:01.000Z',
        trace: [{ model: 'gpt-4o', messages: [{ role: 'user', content: 'question t1' }], output: 'answer t1', input_tokens: 5, output_tokens: 2 }],
      },
      { input: 'question t2', output: 'answer t2' },
    ]);
  });

  it('a failed tool run says so; spans of other traces or kinds add nothing', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const processor = new NebulyAgentsProcessor({ nebuly });
    await processor.onSpanEnd(span('unknown', 0, { type: 'function', name: 'x', input: '', output: '' }));
    await runTrace(processor, { traceId: 't1', groupId: 'chat-1', metadata: { user_id: 'user-1' } }, [
      span('t1', 0, { type: 'agent', name: 'Solo' }),
      span('t1', 1, { type: 'function', name: 'lookup', input: '{}', output: '' }, { message: 'database down' }),
    ]);
    await nebuly.shutdown();
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ source: 'lookup', input: '{}', outputs: ['[nebuly: call failed (database down)]'] }]);
  });

  it('bad options are a TypeError naming the option', () => {
    const { nebuly } = nebulyWithReference();
    // @ts-expect-error: no client
    expect(() => new NebulyAgentsProcessor({})).toThrow(/`nebuly` must be a NebulyClient/);
    // @ts-expect-error: not a function
    expect(() => new NebulyAgentsProcessor({ nebuly, conversationId: 'chat-1' })).toThrow(/`conversationId`, when given, must be a function/);
  });
});
