import { describe, expect, it } from 'vitest';
import { Recorder } from './recorder.js';
import { MAX_TIMER_DELAY_MS, startTimer } from './timers.js';

describe('startTimer', () => {
  it('never keeps the process alive', () => {
    const handle = startTimer(() => undefined, 60_000);
    expect(handle.hasRef()).toBe(false);
    clearTimeout(handle);
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
  it('leave the event loop free: an open conversation and a pending shutdown hold no ref', async () => {
    const before = new Set(process.getActiveResourcesInfo());
    const recorder = new Recorder({
      http: { accepted: () => new Promise(() => undefined) },
      onError: () => undefined,
      options: { idleTimeoutMs: 60_000 },
    });
    recorder.startConversation({ end_user: 'u' }).interaction({ input: 'q' }).end({ output: 'a' });
    const timeouts = (list: string[]) => list.filter((kind) => kind === 'Timeout').length;
    // getActiveResourcesInfo lists only timers that hold the loop open.
    expect(timeouts(process.getActiveResourcesInfo())).toBe(timeouts([...before]));
    void recorder.shutdown({ timeoutMs: 60_000 });
    await Promise.resolve();
    expect(timeouts(process.getActiveResourcesInfo())).toBe(timeouts([...before]));
  });
});
