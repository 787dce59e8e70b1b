import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveRecorderOptions } from '../../src/core/recorder-options.js';
import type { NebulyError } from '../../src/core/errors.js';
import { FakeTransport } from './fake-transport.js';

// Not through setup.ts, which loads the stages ahead: here they load at their first use,
// by a real `import()`, as in a user's bundle.

afterEach(() => {
  vi.doUnmock('../../src/recorder/sending.js');
  vi.resetModules();
});

function init(errors: NebulyError[]) {
  return { options: resolveRecorderOptions({}), transport: new FakeTransport(), report: (error: NebulyError) => errors.push(error), mask: undefined, changed: () => undefined };
}

/** A recorder whose stages load at their first use, over a {@link FakeTransport}, with the errors it reported. */
async function coldRecorder() {
  const { Recorder } = await import('../../src/recorder/recorder.js');
  const transport = new FakeTransport();
  const errors: NebulyError[] = [];
  const recorder = new Recorder({ http: transport, onError: (error) => errors.push(error) });
  return { transport, errors, recorder };
}

describe('the recorder before its stages are loaded', () => {
  it('loads nothing at construction, and the stages at their first use', async () => {
    const { LazyStages } = await import('../../src/recorder/lazy-stages.js');
    const stages = new LazyStages(init([]));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(stages.ready).toBeUndefined();
    const store = await stages.use(({ store }) => store, () => undefined);
    expect(store?.shared).toBe(false);
    expect(stages.ready).toBeDefined();
  });

  it('runs what was asked before they loaded in the order it was asked: a flush waits for the turns and the end before it', async () => {
    const { transport, errors, recorder } = await coldRecorder();
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'q1' }).end({ output: 'a1' });
    conversation.interaction({ input: 'q2' }).end({ output: 'a2' });
    const outcome = conversation.end();
    await expect(recorder.flush()).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
    await expect(outcome).resolves.toMatchObject({ status: 'delivered' });
    expect(transport.bodies).toMatchObject([{ conversation: { interactions: [{ input: 'q1' }, { input: 'q2' }] } }]);
    expect(errors).toEqual([]);
    await recorder.shutdown();
  });

  it('shutdown() closes the open conversations to recording at once, and sends them once the stages are loaded', async () => {
    const { transport, errors, recorder } = await coldRecorder();
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    const shutdown = recorder.shutdown();
    // Before the stages have loaded: already refused.
    conversation.interaction({ input: 'too late' });
    expect(errors.map((error) => ('code' in error ? error.code : error.name))).toEqual(['conversation_ended']);
    await expect(shutdown).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
    expect(transport.bodies).toMatchObject([{ conversation: { interactions: [{ input: 'q' }] } }]);
  });

  it('hands over what waited for them in slices, in order: the host runs between', async () => {
    const { LazyStages } = await import('../../src/recorder/lazy-stages.js');
    const stages = new LazyStages(init([]));
    const ran: number[] = [];
    for (let i = 0; i < 5_000; i += 1) void stages.use(() => ran.push(i), () => undefined, true);
    // Sampled at each turn of the host's event loop, until the last has run.
    const seen: number[] = [];
    while (stages.sendsWaiting > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      seen.push(stages.sendsWaiting);
    }
    // Not all in one go: some turns of the loop found part of them handed over.
    expect(seen.filter((waiting) => waiting > 0 && waiting < 5_000).length).toBeGreaterThan(1);
    expect(ran).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
  });

  it('once loaded, runs a use of a conversation with nothing waiting at once while the rest is handed over; one with something waiting, and a flush, after it', async () => {
    const { LazyStages } = await import('../../src/recorder/lazy-stages.js');
    const stages = new LazyStages(init([]));
    const ran: string[] = [];
    for (let i = 0; i < 5_000; i += 1) stages.run(() => ran.push(`old-${i % 100}`), false, `old-${i % 100}`);
    // Loaded once the host has had a turn; then in slices.
    while (stages.ready === undefined && !ran.includes('old-0')) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(ran.length).toBeLessThan(5_000);
    stages.run(() => ran.push('new'), false, 'new');
    stages.run(() => ran.push('old-99 again'), false, 'old-99');
    const flushed = stages.use(() => ran.push('flush'), () => undefined);
    // At once: no earlier use of its conversation waits.
    expect(ran.at(-1)).toBe('new');
    await flushed;
    // In the order asked: after every use that waited.
    expect(ran.slice(-2)).toEqual(['old-99 again', 'flush']);
    expect(ran.filter((name) => name.startsWith('old-99'))).toHaveLength(51);
  });

  it('sweep() before they load sweeps the shared store once they are', async () => {
    const { Recorder } = await import('../../src/recorder/recorder.js');
    const { sharedStore } = await import('./shared-store.js');
    let now = Date.parse('2026-05-01T10:00:00.000Z');
    const store = sharedStore();
    const options = { store, sweepIntervalMs: 0, idleTimeoutMs: 60_000, now: () => now };
    const transport = new FakeTransport();
    const first = new Recorder({ http: transport, onError: () => undefined, options });
    first.conversation({ conversation_id: 'idle', end_user: 'u' }).interaction({ input: 'q' }).end({ output: 'a' });
    await first.flush();
    now += 61_000;
    const second = new Recorder({ http: transport, onError: () => undefined, options });
    await expect(second.sweep()).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
    expect(transport.bodies).toMatchObject([{ conversation: { interactions: [{ input: 'q' }] } }]);
    await Promise.all([first.shutdown(), second.shutdown()]);
  });

  it('reports once when they cannot be loaded, and never throws or rejects', async () => {
    vi.doMock('../../src/recorder/sending.js', () => {
      throw new Error('chunk not found');
    });
    const { Recorder } = await import('../../src/recorder/recorder.js');
    const errors: NebulyError[] = [];
    const recorder = new Recorder({ http: new FakeTransport(), onError: (error) => errors.push(error) });
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    await expect(conversation.end()).resolves.toMatchObject({ status: 'failed' });
    await expect(recorder.flush()).resolves.toEqual({ delivered: 0, failed: 0, dropped: 0 });
    await expect(recorder.feedback({ conversation_id: 'c', interaction_id: 'i', slug: 'thumbs_up' })).resolves.toBeUndefined();
    await expect(recorder.shutdown({ timeoutMs: 100 })).resolves.toEqual({ delivered: 0, failed: 0, dropped: 0 });
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/^The recorder could not load its background stages; nothing will be sent: /)]);
  });

  it('when they cannot be loaded, shutdown() still ends the open conversations, and does not hold the process', async () => {
    vi.doMock('../../src/recorder/sending.js', () => {
      throw new Error('chunk not found');
    });
    const { Recorder } = await import('../../src/recorder/recorder.js');
    const recorder = new Recorder({ http: new FakeTransport(), onError: () => undefined });
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timeouts();
    await expect(recorder.shutdown({ timeoutMs: 60_000 })).resolves.toEqual({ delivered: 0, failed: 0, dropped: 0 });
    await expect(conversation.end()).resolves.toMatchObject({ status: 'failed' });
    // The shutdown deadline was cleared, not left to hold the process for a minute.
    expect(timeouts()).toBeLessThanOrEqual(before);
  });
});
