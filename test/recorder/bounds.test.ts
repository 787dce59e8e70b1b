import { backlogRoom, IDLE_PER_TICK } from '../../src/recorder/open-conversations.js';
import { describe, expect, it, vi } from 'vitest';
import { type DeliveryError, QueueFullError } from '../../src/recorder/errors.js';
import type { Conversation } from '../../src/recorder/conversation.js';
import { kinds, oneTurn, settle, setup, until, useFakeClock } from './setup.js';

useFakeClock();

/**
 * Lets the recorder's slices run and moves the fake clock `stepMs` at a time (its idle
 * timer), `steps` times or until `done` holds.
 */
async function drive(steps: number, stepMs: number, done: () => boolean = () => false): Promise<void> {
  for (let step = 0; step < steps && !done(); step += 1) {
    await settle();
    await vi.advanceTimersByTimeAsync(stepMs);
  }
}

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

  it('ends a wave of idle conversations as fast as they are sent, and shuts down with thousands open, refusing none', async () => {
    const { transport, errors, recorder } = setup({ idleTimeoutMs: 60_000, maxConcurrentSends: 2 });
    transport.fallback = 'hold';
    const open = (prefix: string) =>
      Array.from({ length: 1_100 }, (_, i) => {
        const conversation = recorder.startConversation({ end_user: 'u', conversation_id: `${prefix}${i}` });
        conversation.interaction({ input: 'q' }).end({ output: 'a' });
        return conversation;
      });
    const endedOf = (conversations: Conversation[]) => conversations.filter((conversation) => conversation.ended).length;
    const idle = open('idle');
    await vi.advanceTimersByTimeAsync(30_000);
    const atShutdown = open('shutdown');
    await vi.advanceTimersByTimeAsync(30_000); // the first 1,100 go idle together
    // One timer ends at most IDLE_PER_TICK of them a tick, the rest on the next ticks …
    expect(endedOf(idle)).toBe(IDLE_PER_TICK);
    await drive(400, 1);
    // … while the backlog has room: with every send held, the others wait, open.
    expect(endedOf(idle)).toBe(backlogRoom(0, 2));
    expect(transport.requests).toHaveLength(2);
    // Sent, they make room for the rest.
    transport.fallback = 'accept';
    transport.releaseAll();
    await drive(400, 1, () => transport.requests.length === 1_100);
    expect(endedOf(idle)).toBe(1_100);
    let flushed = false;
    void recorder.flush().then(() => (flushed = true));
    await drive(400, 1, () => flushed);

    // Shutdown closes every open conversation to recording at once, and sends them as
    // the backlog has room, before its deadline.
    transport.fallback = 'hold';
    const closed = recorder.shutdown({ timeoutMs: 5_000 });
    expect(endedOf(atShutdown)).toBe(1_100);
    await drive(400, 1, () => transport.requests.length > 1_102);
    expect(transport.requests).toHaveLength(1_102);
    transport.fallback = 'accept';
    transport.releaseAll();
    await drive(400, 1, () => transport.requests.length === 2_200);
    // It counts what had not met its fate at its call: the 1,100 it ended.
    await expect(closed).resolves.toMatchObject({ delivered: 1_100 });
    expect(errors).toEqual([]);
    expect(transport.requests).toHaveLength(2_200);
  });
  it('at shutdown, lets go of a wave as fast as its sends settle: woken by them, with no timer to wait for', async () => {
    const { transport, errors, recorder } = setup({ maxConcurrentSends: 2 });
    for (let i = 0; i < 1_100; i += 1) {
      recorder.startConversation({ end_user: 'u', conversation_id: `c${i}` }).interaction({ input: `q${i}` }).end({ output: 'a' });
    }
    const closed = recorder.shutdown({ timeoutMs: 5_000 });
    // The fake clock never moves: only the sends settling let the next ones go.
    await until(() => transport.requests.length === 1_100);
    await expect(closed).resolves.toMatchObject({ delivered: 1_100 });
    expect(errors).toEqual([]);
  });

  it('at the shutdown deadline, lets go of every conversation still waiting for room, each reported with its payload', async () => {
    const { transport, errors, recorder } = setup();
    transport.fallback = 'hold';
    for (let i = 0; i < 300; i += 1) {
      recorder.startConversation({ end_user: 'u', conversation_id: `c${i}` }).interaction({ input: `q${i}` }).end({ output: 'a' });
    }
    const closed = recorder.shutdown({ timeoutMs: 1_000 });
    await drive(30, 50);
    await closed;
    await until(() => errors.length === 300);
    const undelivered = errors.map((error) => error as DeliveryError);
    expect(new Set(undelivered.map((error) => error.conversationId))).toEqual(new Set(Array.from({ length: 300 }, (_, i) => `c${i}`)));
    expect(JSON.parse(undelivered.find((error) => error.conversationId === 'c299')?.payload ?? '')).toMatchObject({
      conversation: { interactions: [{ input: 'q299' }] },
    });
    transport.releaseAll();
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

  it('ends one already idle, waiting for room in the backlog, as idle: no eviction is reported', async () => {
    const { transport, errors, recorder } = setup({ idleTimeoutMs: 1_000, maxOpenConversations: 300 });
    transport.fallback = 'hold';
    const conversations = Array.from({ length: 300 }, (_, i) => {
      const conversation = recorder.startConversation({ end_user: 'u', conversation_id: `c${i}` });
      conversation.interaction({ input: 'q' }).end({ output: 'a' });
      return conversation;
    });
    await drive(40, 50);
    // All idle; the backlog took what it holds, the others wait, open.
    const waiting = conversations.filter((conversation) => !conversation.ended);
    expect(waiting).toHaveLength(300 - backlogRoom(0, 32));
    // One recorded on while it waits goes on: it is no longer idle.
    const resumed = waiting.pop() as Conversation;
    resumed.interaction({ input: 'back' }).end({ output: 'again' });
    expect(resumed.ended).toBe(false);
    // Back at the bound, a new conversation ends the idlest: one of those waiting.
    for (let i = 0; i <= backlogRoom(0, 32); i += 1) recorder.startConversation({ end_user: 'u', conversation_id: `new${i}` });
    expect(waiting[0]?.ended).toBe(true);
    expect(waiting[1]?.ended).toBe(false);
    await settle();
    expect(errors).toEqual([]);
    transport.fallback = 'accept';
    transport.releaseAll();
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
