import { describe, expect, it } from 'vitest';
import { InternalServerError } from '../../src/core/errors.js';
import { DeliveryError } from '../../src/recorder/errors.js';
import { memoryStore } from '../../src/recorder/store/memory-store.js';
import type { ConversationStore } from '../../src/types/store.js';
import { oneTurn, settle, setup, until, useFakeClock } from './setup.js';

useFakeClock();

describe('sending', () => {
  it('sends at most maxConcurrentSends at once, and all of them in the end', async () => {
    const { transport, recorder } = setup({ maxConcurrentSends: 3 });
    transport.fallback = 'hold';
    const outcomes = Array.from({ length: 10 }, (_, i) => oneTurn(recorder, `c${i}`));
    // Once the limit's sends are out (sends are paced, a few a slice on a loaded machine),
    // and the work has had more turns: still no more than the limit.
    await until(() => transport.held >= 3);
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

  it('lowers its limit on sends in flight while the service fails, and raises it back to maxConcurrentSends as sends are delivered', async () => {
    const { transport, errors, recorder } = setup({ maxConcurrentSends: 8 });
    // How many of `count` are sent while none is answered: once `limit` are (sends are
    // paced, a few a slice on a loaded machine), and the work has had more turns.
    const inFlight = async (count: number, limit: number): Promise<number> => {
      const before = transport.requests.length;
      transport.fallback = 'hold';
      const held = Array.from({ length: count }, (_, i) => oneTurn(recorder, `held${before}-${i}`));
      await until(() => transport.held >= limit);
      await settle();
      const sent = transport.requests.length - before;
      transport.fallback = 'accept';
      transport.releaseAll();
      await Promise.all(held);
      return sent;
    };
    expect(await inFlight(20, 8)).toBe(8);
    // The service fails every send (after the client's retries): the limit falls by a quarter each time, to a quarter of the maximum.
    transport.fallback = new InternalServerError(503, null, new Headers(), 'POST', '/x');
    await Promise.all(Array.from({ length: 8 }, (_, i) => oneTurn(recorder, `down${i}`)));
    expect(errors).toHaveLength(8);
    expect(await inFlight(20, 2)).toBe(2);
    // Delivered while others wait for a place: one more place per round of deliveries.
    transport.fallback = 'accept';
    await Promise.all(Array.from({ length: 200 }, (_, i) => oneTurn(recorder, `up${i}`)));
    expect(await inFlight(20, 8)).toBe(8);
    expect(errors).toHaveLength(8);
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


/** A memory store whose every answer comes as a thenable that is not a native promise, as a store built on another promise library may give. */
function thenableStore(): ConversationStore {
  const store = memoryStore();
  return new Proxy(store, {
    get: (target, name) => {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const answer: unknown = value.apply(target, args);
        return { then: (resolve: (value: unknown) => void) => setImmediate(() => resolve(answer)) };
      };
    },
  });
}

describe('a store that answers with thenables', () => {
  it('has its conversations claimed and sent, and the empty ones found empty', async () => {
    const { transport, recorder } = setup({ store: thenableStore() });
    const outcome = oneTurn(recorder, 'thenable');
    const empty = recorder.startConversation({ end_user: 'u', conversation_id: 'nothing' }).end();
    await until(() => transport.requests.length === 1);
    expect(await outcome).toEqual({ status: 'delivered', conversationId: 'thenable' });
    expect(await empty).toEqual({ status: 'empty', conversationId: 'nothing' });
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
    await until(() => transport.held === 1);
    transport.releaseAll(); // 'before'
    await first;
    expect(order).toEqual(['first']);
    await until(() => transport.held === 1);
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
