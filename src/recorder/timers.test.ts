import { describe, expect, it } from 'vitest';
import { Recorder } from './recorder.js';
import { MAX_TIMER_DELAY_MS, startTimer } from './timers.js';

describe('startTimer', () => {
  it('does not keep the process alive, unless asked to', () => {
    const handle = startTimer(() => undefined, 60_000);
    expect(handle.hasRef()).toBe(false);
    clearTimeout(handle);
    const kept = startTimer(() => undefined, 60_000, { keepAlive: true });
    expect(kept.hasRef()).toBe(true);
    clearTimeout(kept);
  });

  it('caps the delay where setTimeout would fire at once', async () => {
    let fired = false;
    const handle = startTimer(() => {
      fired = true;
    }, Number.MAX_SAFE_INTEGER);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fired).toBe(false);
    clearTimeout(handle);
    expect(MAX_TIMER_DELAY_MS).toBe(2 ** 31 - 1);
  });
});

describe('the recorder’s timers', () => {
  const timeouts = (list: string[]) => list.filter((kind) => kind === 'Timeout').length;

  it('leave the event loop free while recording: an open conversation holds no ref', () => {
    const before = timeouts(process.getActiveResourcesInfo());
    const recorder = new Recorder({
      http: { deliver: () => new Promise(() => undefined) },
      onError: () => undefined,
      options: { idleTimeoutMs: 60_000 },
    });
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    // getActiveResourcesInfo lists only timers that hold the loop open.
    expect(timeouts(process.getActiveResourcesInfo())).toBe(before);
    void conversation.end();
  });

  it('keep the process alive for an awaited shutdown() until its deadline, and no longer', async () => {
    const before = timeouts(process.getActiveResourcesInfo());
    const errors: string[] = [];
    const recorder = new Recorder({
      http: { deliver: () => new Promise(() => undefined) },
      onError: (error) => errors.push(error.name),
      options: { idleTimeoutMs: 60_000 },
    });
    recorder.startConversation({ end_user: 'u' }).interaction({ input: 'q' }).end({ output: 'a' });
    const shutdown = recorder.shutdown({ timeoutMs: 50 });
    await Promise.resolve();
    // The deadline, ref'd: a fetch that hangs without a handle of its own must not let the
    // process exit before shutdown() resolves and reports what was not sent.
    expect(timeouts(process.getActiveResourcesInfo())).toBe(before + 1);
    await shutdown;
    expect(errors).toEqual(['DeliveryError']);
    expect(timeouts(process.getActiveResourcesInfo())).toBe(before);
  });
});
