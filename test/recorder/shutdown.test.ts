import { describe, expect, it, vi } from 'vitest';
import { AbortError } from '../../src/core/errors.js';
import { DeliveryError } from '../../src/recorder/errors.js';
import { kinds, oneTurn, settle, setup, useFakeClock } from './setup.js';

useFakeClock();

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

  it.each([
    [{ timeout: 100 }, 'Invalid shutdown() options: timeout is not a shutdown option; did you mean `timeoutMs`?'],
    [{ timeoutMs: -1 }, 'Invalid shutdown() options: timeoutMs must be'],
    [{ timeoutMs: '100' }, 'Invalid shutdown() options: timeoutMs must be'],
  ])('reports options it cannot use, %j, by name, and waits the recorder\'s shutdownTimeoutMs instead', async (options, said) => {
    const { transport, errors, recorder } = setup({ shutdownTimeoutMs: 5_000 });
    transport.fallback = 'hold';
    void oneTurn(recorder, 'held');
    await settle();
    let done = false;
    const shutdown = recorder.shutdown(options as never).then(() => {
      done = true;
    });
    expect(kinds(errors)).toEqual(['ValidationError']);
    expect(errors[0]?.message).toContain(said);
    // Not the 100 ms it was perhaps meant to be, nor at once: the default.
    await vi.advanceTimersByTimeAsync(4_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await shutdown;
    expect(kinds(errors)).toEqual(['ValidationError', 'DeliveryError']);
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

  it('aborts the requests still in flight at the deadline, through the one signal of all its sends', async () => {
    const { transport, errors, recorder } = setup({ maxConcurrentSends: 3 });
    transport.fallback = 'hold';
    const outcomes = [oneTurn(recorder, 'answered'), oneTurn(recorder, 'in-flight')];
    await settle();
    const [answered, inFlight] = transport.requests.map((request) => request.signal);
    expect(inFlight).toBeInstanceOf(AbortSignal);
    // One signal for every send: a controller per request cost a quarter of the request's
    // own CPU on Node; the HTTP core listens to it once however many requests share it.
    expect(inFlight).toBe(answered);
    transport.releaseOldest();
    await expect(outcomes[0]).resolves.toMatchObject({ status: 'delivered' });

    const shutdown = recorder.shutdown({ timeoutMs: 1000 });
    expect(inFlight?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    await shutdown;
    expect(inFlight?.aborted).toBe(true);
    expect(inFlight?.reason).toBeInstanceOf(AbortError);
    await expect(outcomes[0]).resolves.toMatchObject({ status: 'delivered' });
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
