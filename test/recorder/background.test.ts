import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AbortError, InternalServerError } from '../../src/core/errors.js';
import { DeliveryError, QueueFullError } from '../../src/recorder/errors.js';
import type { Conversation } from '../../src/recorder/conversation.js';
import type { ConversationOutcome } from '../../src/recorder/outcome.js';
import { Recorder } from '../../src/recorder/recorder.js';
import { FakeTransport } from './fake-transport.js';
import { kinds, settle, setup } from './setup.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(new Date('2026-05-01T10:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

/** Starts, records one interaction in, and ends a conversation; returns its outcome. */
function oneTurn(recorder: Recorder, input = 'q'): Promise<ConversationOutcome> {
  const conversation = recorder.startConversation({ end_user: 'u', conversation_id: input });
  conversation.interaction({ input }).end({ output: 'a' });
  return conversation.end();
}

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

describe('sending', () => {
  it('sends at most maxConcurrentSends at once, and all of them in the end', async () => {
    const { transport, recorder } = setup({ maxConcurrentSends: 3 });
    transport.fallback = 'hold';
    const outcomes = Array.from({ length: 10 }, (_, i) => oneTurn(recorder, `c${i}`));
    await settle();
    expect(transport.requests).toHaveLength(3);
    transport.fallback = 'accept';
    transport.releaseAll();
    const all = await Promise.all(outcomes);
    expect(all.every((outcome) => outcome.status === 'delivered')).toBe(true);
    expect(transport.maxInFlight).toBe(3);
    // First ended, first sent.
    expect(transport.bodies.map((body) => (body as { conversation: { interactions: { input: string }[] } }).conversation.interactions[0]?.input)).toEqual(
      Array.from({ length: 10 }, (_, i) => `c${i}`),
    );
  });

  it('reports a conversation that failed after the retries, with its payload', async () => {
    const { transport, errors, recorder } = setup();
    const cause = new InternalServerError(503, { detail: 'down' }, new Headers(), 'POST', '/x');
    transport.script.push(cause);
    const outcome = await oneTurn(recorder, 'lost');
    expect(outcome.status).toBe('failed');
    expect(errors).toHaveLength(1);
    const error = errors[0] as DeliveryError;
    expect(error).toBeInstanceOf(DeliveryError);
    expect(outcome).toEqual({ status: 'failed', conversationId: 'lost', error });
    expect(error.cause).toBe(cause);
    expect(error.conversationId).toBe('lost');
    expect(error.payload).toBe(transport.requests[0]?.body);
  });
});

describe('the queue bound', () => {
  it('reports every conversation past maxQueuedConversations in one QueueFullError, with every payload', async () => {
    const { transport, errors, recorder } = setup({ maxQueuedConversations: 2, maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    const outcomes = Array.from({ length: 5 }, (_, i) => oneTurn(recorder, `c${i}`));
    await settle();
    // Ended in one tick: two fit in the queue, the other three are refused together,
    // reported once the burst is over.
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(errors)).toEqual(['QueueFullError']);
    const refused = errors[0] as QueueFullError;
    expect(refused.limit).toBe('maxQueuedConversations');
    expect(refused.conversations.map((conversation) => conversation.conversationId)).toEqual(['c2', 'c3', 'c4']);
    expect(JSON.parse(refused.conversations[0]?.payload ?? '')).toMatchObject({
      conversation: { interactions: [{ input: 'c2' }] },
    });
    expect(refused.message).toBe(
      '3 conversation(s) were not queued for sending (c2, c3, c4): the queue was at its `maxQueuedConversations` bound (2); ' +
        'their payloads are in `conversations`',
    );

    // Sending frees the queue: a later conversation fits again.
    transport.fallback = 'accept';
    transport.releaseAll();
    await settle();
    await expect(oneTurn(recorder, 'later')).resolves.toMatchObject({ status: 'delivered' });
    const settled = await Promise.all(outcomes);
    expect(settled.map((outcome) => outcome.status)).toEqual(['delivered', 'delivered', 'dropped', 'dropped', 'dropped']);
    expect(settled[2]).toEqual({ status: 'dropped', conversationId: 'c2', error: refused });
  });

  it('reports what is past maxQueuedBytes', async () => {
    const { transport, errors, recorder } = setup({ maxQueuedBytes: 400 });
    transport.fallback = 'hold';
    const first = oneTurn(recorder, 'x'.repeat(150));
    const second = oneTurn(recorder, 'y'.repeat(150));
    const third = oneTurn(recorder, 'z'.repeat(150));
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(errors)).toEqual(['QueueFullError']);
    expect((errors[0] as QueueFullError).limit).toBe('maxQueuedBytes');
    expect((errors[0] as QueueFullError).conversations).toHaveLength(2);
    await expect(second).resolves.toMatchObject({ status: 'dropped' });
    await expect(third).resolves.toMatchObject({ status: 'dropped' });
    transport.releaseAll();
    await settle();
    transport.releaseAll();
    await expect(first).resolves.toMatchObject({ status: 'delivered' });
  });

  it('gives one report per burst: a later burst gets its own', async () => {
    const { transport, errors, recorder } = setup({ maxQueuedConversations: 1, maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    for (let i = 0; i < 4; i += 1) void oneTurn(recorder, `a${i}`);
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 3; i += 1) void oneTurn(recorder, `b${i}`);
    await vi.advanceTimersByTimeAsync(0);
    const bursts = (errors as QueueFullError[]).map((error) => error.conversations.map((c) => c.conversationId));
    // a0 is in flight and the queue empty when the second burst comes: b0 takes its place.
    expect(bursts).toEqual([['a1', 'a2', 'a3'], ['b1', 'b2']]);
    transport.releaseAll();
  });

  it('holds by default a burst far past the old count bound of 1,000: only bytes bound the queue', async () => {
    const { transport, errors, recorder } = setup({ maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    const outcomes = Array.from({ length: 2_000 }, (_, i) => oneTurn(recorder, `c${i}`));
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
    expect(kinds(errors)).toEqual(['conversation_evicted', 'interaction_open']);
  });
});

describe('flush', () => {
  it('resolves once everything ended before it was delivered', async () => {
    const { transport, recorder } = setup();
    transport.fallback = 'hold';
    const outcomes = [oneTurn(recorder, 'a'), oneTurn(recorder, 'b')];
    let flushed = false;
    const flushing = recorder.flush().then(() => {
      flushed = true;
    });
    await settle();
    expect(flushed).toBe(false);
    transport.releaseAll();
    await flushing;
    const statuses = await Promise.all(outcomes);
    expect(statuses.map((outcome) => outcome.status)).toEqual(['delivered', 'delivered']);
  });

  it('does not strand what is recorded during a flush, and flushes resolve in order', async () => {
    const { transport, recorder } = setup({ maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    const open = recorder.startConversation({ end_user: 'u' });
    const turn = open.interaction({ input: 'during' });
    void oneTurn(recorder, 'before');
    const order: string[] = [];
    const first = recorder.flush().then(() => order.push('first'));
    turn.end({ output: 'a' });
    void open.end(); // ended while the first flush runs
    const second = recorder.flush().then(() => order.push('second'));
    await settle();
    transport.releaseAll(); // 'before'
    await first;
    expect(order).toEqual(['first']);
    await settle();
    transport.releaseAll(); // 'during', sent without waiting for another call
    await second;
    expect(order).toEqual(['first', 'second']);
    expect(transport.requests).toHaveLength(2);
  });

  it('resolves at once when nothing is pending', async () => {
    const { recorder } = setup();
    await expect(recorder.flush()).resolves.toEqual({ delivered: 0, failed: 0, dropped: 0 });
  });
});

describe('shutdown', () => {
  it('ends every open conversation, sends it, and is idempotent', async () => {
    const { transport, errors, recorder } = setup();
    const a = recorder.startConversation({ end_user: 'a' });
    a.interaction({ input: '1' }).end({ output: '1' });
    const b = recorder.startConversation({ end_user: 'b' });
    b.interaction({ input: '2' }); // left open
    const first = recorder.shutdown();
    expect(recorder.shutdown()).toBe(first);
    await first;
    expect(a.ended && b.ended).toBe(true);
    expect(transport.requests).toHaveLength(2);
    expect(kinds(errors)).toEqual(['interaction_open']);
    expect(errors[0]?.message).toMatch(/shutdown\(\)/);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives up at timeoutMs: aborts what is in flight and reports what is left, with payloads', async () => {
    const { transport, errors, recorder } = setup({ maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    const outcomes = [oneTurn(recorder, 'in-flight'), oneTurn(recorder, 'queued')];
    await settle();
    let done = false;
    const shutdown = recorder.shutdown({ timeoutMs: 2000 }).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await shutdown;
    expect(transport.requests[0]?.signal?.aborted).toBe(true);
    expect(transport.requests).toHaveLength(1); // the queued one was never sent
    expect(kinds(errors)).toEqual(['DeliveryError', 'DeliveryError']);
    const reported = errors as DeliveryError[];
    expect(reported.map((error) => error.conversationId).sort()).toEqual(['in-flight', 'queued']);
    expect(reported.every((error) => error.cause instanceof AbortError)).toBe(true);
    expect(reported.every((error) => JSON.parse(error.payload) !== null)).toBe(true);
    expect((await Promise.all(outcomes)).map((outcome) => outcome.status)).toEqual(['failed', 'failed']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives each request its own abort signal, and aborts only those still in flight at the deadline', async () => {
    const { transport, errors, recorder } = setup({ maxConcurrentSends: 3 });
    transport.fallback = 'hold';
    const outcomes = [oneTurn(recorder, 'answered'), oneTurn(recorder, 'in-flight')];
    await settle();
    const [answered, inFlight] = transport.requests.map((request) => request.signal);
    expect(answered).toBeInstanceOf(AbortSignal);
    expect(inFlight).toBeInstanceOf(AbortSignal);
    // One signal per request: a signal shared by every send keeps, on Node 20, each signal
    // derived from it (ky's AbortSignal.any) for as long as the client lives.
    expect(inFlight).not.toBe(answered);
    transport.releaseOldest();
    await expect(outcomes[0]).resolves.toMatchObject({ status: 'delivered' });

    const shutdown = recorder.shutdown({ timeoutMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    await shutdown;
    expect(inFlight?.aborted).toBe(true);
    expect(inFlight?.reason).toBeInstanceOf(AbortError);
    expect(answered?.aborted).toBe(false);
    await expect(outcomes[1]).resolves.toMatchObject({ status: 'failed' });
    expect(kinds(errors)).toEqual(['DeliveryError']);
  });

  it('is bounded even when the transport ignores the abort', async () => {
    const { transport, errors, recorder } = setup();
    transport.fallback = 'hold';
    transport.ignoreAbort = true;
    const outcome = oneTurn(recorder);
    await settle();
    const shutdown = recorder.shutdown({ timeoutMs: 500 });
    await vi.advanceTimersByTimeAsync(500);
    await expect(shutdown).resolves.toEqual({ delivered: 0, failed: 1, dropped: 0 });
    await expect(outcome).resolves.toMatchObject({ status: 'failed' });
    // The request that answers late changes nothing and reports nothing twice.
    transport.releaseAll();
    await settle();
    expect(errors).toHaveLength(1);
  });
});

describe('flush() or shutdown() called from onError', () => {
  // What `end()` reports about the conversation itself is reported once the conversation
  // is in the publisher's hands, so a handler that flushes or shuts down waits for it.
  const cases: [string, (conversation: Conversation) => void][] = [
    ['interaction_open', (conversation) => void conversation.interaction({ input: 'never ended' })],
    [
      'ValidationError',
      (conversation) =>
        void conversation.interaction({ input: 'q' }).llm({ model: '', messages: [], output: 'x' }).end({ output: 'a' }),
    ],
    ['conversation_cropped', (conversation) => void conversation.interaction({ input: 'x'.repeat(5_000) }).end({ output: 'a' })],
  ];

  for (const method of ['flush', 'shutdown'] as const) {
    it.each(cases)(`${method}() from the handler of %s waits for that conversation`, async (kind, record) => {
      const transport = new FakeTransport();
      transport.fallback = 'hold';
      const reported: string[] = [];
      let waiting: Promise<unknown> | undefined;
      const recorder: Recorder = new Recorder({
        http: transport,
        onError: (error) => {
          reported.push(kinds([error])[0] ?? '');
          waiting ??= recorder[method]();
        },
        options: { maxConversationBytes: 1_000 },
      });
      const conversation = recorder.startConversation({ end_user: 'u' });
      record(conversation);
      const outcome = conversation.end();
      expect(reported).toEqual([kind]);
      let done = false;
      void waiting?.then(() => {
        done = true;
      });
      await settle();
      expect(transport.requests).toHaveLength(1);
      expect(done).toBe(false);
      transport.releaseAll();
      await waiting;
      await expect(outcome).resolves.toMatchObject({ status: 'delivered' });
    });
  }

  it('reports in the order things happened, the queue bound last', async () => {
    const { transport, errors, recorder } = setup({ maxConversationBytes: 1_000, maxQueuedConversations: 1, maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    void oneTurn(recorder, 'in flight');
    await settle();
    void oneTurn(recorder, 'queued');
    const conversation = recorder.startConversation({ end_user: 'u' });
    const turn = conversation.interaction({ input: 'x'.repeat(5_000) });
    turn.llm({ model: '', messages: [], output: 'x' });
    const outcome = conversation.end();
    expect(kinds(errors)).toEqual(['interaction_open', 'ValidationError', 'conversation_cropped']);
    await vi.advanceTimersByTimeAsync(0);
    await expect(outcome).resolves.toMatchObject({ status: 'dropped' });
    expect(kinds(errors)).toEqual(['interaction_open', 'ValidationError', 'conversation_cropped', 'QueueFullError']);
    transport.releaseAll();
    await settle();
    transport.releaseAll();
  });
});
