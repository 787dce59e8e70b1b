import { describe, expect, it, vi } from 'vitest';
import { kinds, oneTurn, settle, setup, useFakeClock } from './setup.js';

useFakeClock();

describe('the idle time-out', () => {
  it('ends and sends a conversation idle for idleTimeoutMs, counting from the last activity', async () => {
    const { transport, errors, recorder } = setup({ idleTimeoutMs: 60_000 });
    const conversation = recorder.startConversation({ end_user: 'u' });
    await vi.advanceTimersByTimeAsync(50_000);
    const turn = conversation.interaction({ input: 'q' }); // activity at 50 s
    await vi.advanceTimersByTimeAsync(50_000); // fires at 60 s: idle only 10 s, sleeps again
    turn.llm({ model: 'm', messages: [], output: 'a' }); // activity at 100 s
    await vi.advanceTimersByTimeAsync(59_000);
    turn.end({ output: 'a' }); // activity at 159 s
    await vi.advanceTimersByTimeAsync(59_999);
    expect(conversation.ended).toBe(false);
    expect(transport.requests).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(1);
    expect(conversation.ended).toBe(true);
    await settle();
    expect(transport.requests).toHaveLength(1);
    expect(errors).toEqual([]);
    await expect(conversation.end()).resolves.toMatchObject({ status: 'delivered' });
  });

  it('sends an interaction left open, reporting it', async () => {
    const { transport, errors, recorder } = setup({ idleTimeoutMs: 1000 });
    recorder.startConversation({ end_user: 'u' }).interaction({ input: 'q' });
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(transport.bodies[0]).toMatchObject({ conversation: { interactions: [{ input: 'q', output: '' }] } });
    expect(kinds(errors)).toEqual(['interaction_open']);
    expect(errors[0]?.message).toMatch(/idle/);
  });

  it('never ends a conversation on its own when idleTimeoutMs is 0', async () => {
    const { recorder } = setup({ idleTimeoutMs: 0 });
    const conversation = recorder.startConversation({ end_user: 'u' });
    await vi.advanceTimersByTimeAsync(365 * 24 * 3_600_000);
    expect(conversation.ended).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears the timer of a conversation that ended', async () => {
    const { recorder } = setup({ idleTimeoutMs: 1000 });
    await oneTurn(recorder);
    expect(vi.getTimerCount()).toBe(0);
  });
});
