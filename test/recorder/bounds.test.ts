import { IDLE_PER_TICK } from '../../src/recorder/open-conversations.js';
import { describe, expect, it, vi } from 'vitest';
import { QueueFullError } from '../../src/recorder/errors.js';
import type { Conversation } from '../../src/recorder/conversation.js';
import { kinds, oneTurn, settle, setup, useFakeClock } from './setup.js';

useFakeClock();

describe('the queue bound', () => {
  it('reports every conversation past maxQueuedConversations in one QueueFullError, with every payload', async () => {
    const { transport, errors, recorder } = setup({ maxQueuedConversations: 2, maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    const outcomes = Array.from({ length: 5 }, (_, i) => oneTurn(recorder, `c${i}`));
    await settle();
    // Ended together: two fit in the queue (and one may be in flight already), the
    // others are refused together, the latest ones, reported once the burst is over.
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(errors)).toEqual(['QueueFullError']);
    const refused = errors[0] as QueueFullError;
    expect(refused.limit).toBe('maxQueuedConversations');
    const ids = refused.conversations.map((conversation) => conversation.conversationId);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(ids.every((id) => ['c1', 'c2', 'c3', 'c4'].includes(id))).toBe(true);
    expect(JSON.parse(refused.conversations[0]?.payload ?? '')).toMatchObject({
      conversation: { interactions: [{ input: ids[0] }] },
    });
    expect(refused.message).toBe(
      `${ids.length} conversation(s) were not queued for sending (${ids.join(', ')}): the queue was at its \`maxQueuedConversations\` bound (2); ` +
        'their payloads are in `conversations`',
    );

    // Sending frees the queue: a later conversation fits again.
    transport.fallback = 'accept';
    transport.releaseAll();
    await settle();
    await expect(oneTurn(recorder, 'later')).resolves.toMatchObject({ status: 'delivered' });
    const settled = await Promise.all(outcomes);
    expect(settled.map((outcome) => outcome.status)).toEqual(
      Array.from({ length: 5 }, (_, i) => (ids.includes(`c${i}`) ? 'dropped' : 'delivered')),
    );
    expect(settled[Number(ids[0]?.slice(1))]).toEqual({ status: 'dropped', conversationId: ids[0], error: refused });
  });

  it('reports what is past maxQueuedBytes', async () => {
    // Each body is about 260 bytes, and counts QUEUED_ENTRY_OVERHEAD_BYTES more: one fits.
    const { transport, errors, recorder } = setup({ maxQueuedBytes: 1_000, maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    const outcomes = ['w', 'x', 'y', 'z'].map((letter) => oneTurn(recorder, letter.repeat(150)));
    await settle();
    await vi.advanceTimersByTimeAsync(0);
    // One is in flight, at most one is queued: the others are refused, in one report.
    expect(kinds(errors)).toEqual(['QueueFullError']);
    const refused = errors[0] as QueueFullError;
    expect(refused.limit).toBe('maxQueuedBytes');
    expect(refused.conversations.length).toBeGreaterThanOrEqual(2);
    transport.fallback = 'accept';
    transport.releaseAll();
    await settle();
    transport.releaseAll();
    const statuses = (await Promise.all(outcomes)).map((outcome) => outcome.status);
    expect(statuses.filter((status) => status === 'dropped')).toHaveLength(refused.conversations.length);
    expect(statuses.filter((status) => status === 'delivered')).toHaveLength(4 - refused.conversations.length);
  });

  it('gives one report per burst: a later burst gets its own', async () => {
    const { transport, errors, recorder } = setup({ maxQueuedConversations: 1, maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    for (let i = 0; i < 4; i += 1) void oneTurn(recorder, `a${i}`);
    await settle();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 3; i += 1) void oneTurn(recorder, `b${i}`);
    await settle();
    await vi.advanceTimersByTimeAsync(0);
    const bursts = (errors as QueueFullError[]).map((error) => error.conversations.map((c) => c.conversationId));
    // One in flight, one in the queue: the rest of each burst is one report of its own.
    expect(bursts).toHaveLength(2);
    expect(bursts[0]?.length).toBeGreaterThanOrEqual(2);
    expect(bursts[0]?.every((id) => id.startsWith('a'))).toBe(true);
    expect(bursts[1]?.length).toBeGreaterThanOrEqual(2);
    expect(bursts[1]?.every((id) => id.startsWith('b'))).toBe(true);
    transport.releaseAll();
  });

  it('holds by default a burst far past the old count bound of 1,000: only bytes bound the queue', async () => {
    const { transport, errors, recorder } = setup({ maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    const outcomes = Array.from({ length: 2_000 }, (_, i) => oneTurn(recorder, `c${i}`));
    await settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([]);
    transport.fallback = 'accept';
    transport.releaseAll();
    const statuses = new Set((await Promise.all(outcomes)).map((outcome) => outcome.status));
    expect(statuses).toEqual(new Set(['delivered']));
    expect(transport.requests).toHaveLength(2_000);
  });

  it('takes a wave of idle time-outs and a shutdown with thousands open without refusing any', async () => {
    const { transport, errors, recorder } = setup({ idleTimeoutMs: 60_000, maxConcurrentSends: 2 });
    transport.fallback = 'hold';
    const open = (prefix: string) =>
      Array.from({ length: 1_100 }, (_, i) => {
        const conversation = recorder.startConversation({ end_user: 'u', conversation_id: `${prefix}${i}` });
        conversation.interaction({ input: 'q' }).end({ output: 'a' });
        return conversation;
      });
    const idle = open('idle');
    await vi.advanceTimersByTimeAsync(30_000);
    const atShutdown = open('shutdown');
    await vi.advanceTimersByTimeAsync(30_000); // the first 1,100 go idle together
    // One timer ends at most IDLE_PER_TICK of them a tick, the rest on the next ticks.
    expect(idle.filter((conversation) => conversation.ended)).toHaveLength(IDLE_PER_TICK);
    await vi.advanceTimersByTimeAsync(10);
    expect(idle.every((conversation) => conversation.ended)).toBe(true);
    const closed = recorder.shutdown({ timeoutMs: 5_000 });
    expect(atShutdown.every((conversation) => conversation.ended)).toBe(true);
    transport.fallback = 'accept';
    transport.releaseAll();
    await closed;
    expect(errors).toEqual([]);
    expect(transport.requests).toHaveLength(2_200);
  });
});

describe('the open bound', () => {
  it('past maxOpenConversations, ends and sends the longest idle conversation; nothing is dropped', async () => {
    const { transport, errors, recorder } = setup({ maxOpenConversations: 3 });
    const [a, b, c] = ['a', 'b', 'c'].map((id) => {
      const conversation = recorder.startConversation({ end_user: 'u', conversation_id: id });
      vi.advanceTimersByTime(1_000);
      return conversation;
    }) as [Conversation, Conversation, Conversation];
    const turn = a.interaction({ input: 'q' }); // a started first, but is the most recently active
    vi.advanceTimersByTime(1_000);
    b.interaction({ input: 'q' }).end({ output: 'a' });
    vi.advanceTimersByTime(1_000);
    turn.end({ output: 'a' });
    c.interaction({ input: 'q' }).end({ output: 'a' });
    // Idle since: a 5 s, b 4 s, c 5 s. b has been idle longest.
    const d = recorder.startConversation({ end_user: 'u', conversation_id: 'd' });
    expect([a.ended, b.ended, c.ended, d.ended]).toEqual([false, true, false, false]);
    await expect(b.end()).resolves.toEqual({ status: 'delivered', conversationId: 'b' });
    expect(transport.bodies).toMatchObject([{ conversation: { interactions: [{ input: 'q', output: 'a' }] } }]);
    expect(kinds(errors)).toEqual(['conversation_evicted']);
    expect(errors[0]?.message).toMatch(/Conversation b was ended early and sent/);

    b.interaction({ input: 'later' });
    expect(kinds(errors)).toEqual(['conversation_evicted', 'conversation_ended']);
    await recorder.shutdown();
    expect(transport.requests).toHaveLength(3); // a, b, c; d recorded nothing
  });

  it('keeps memory bounded by default: the 10,001st open conversation sends the idlest', async () => {
    const { transport, errors, recorder } = setup();
    const conversations = Array.from({ length: 10_001 }, (_, i) => {
      const conversation = recorder.startConversation({ end_user: 'u', conversation_id: `c${i}` });
      conversation.interaction({ input: 'q' });
      return conversation;
    });
    expect(conversations.filter((conversation) => conversation.ended).map((conversation) => conversation.id)).toEqual(['c0']);
    await settle();
    expect(transport.requests).toHaveLength(1);
    expect(kinds(errors)).toEqual(['interaction_open', 'conversation_evicted']);
  });
});
