import { describe, expect, it, vi } from 'vitest';
import { Recorder } from './recorder.js';
import { MAX_TIMER_DELAY_MS } from '../utils/timer-limit.js';
import { Deadline, startInterval, startTimer } from './timers.js';
// Loaded ahead, as test/recorder/setup.ts does: cold, their transform can
// outlast the 50 ms shutdown deadline below on a busy machine, and nothing is then sent
// before the deadline to be reported.
import './sending.js';

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

describe('startInterval', () => {
  it('runs the task every interval, one run at a time, until stopped', async () => {
    vi.useFakeTimers();
    try {
      let release!: () => void;
      const task = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
      const stop = startInterval(task, 1_000);
      await vi.advanceTimersByTimeAsync(3_000);
      // The first run has not finished: the next two ticks were skipped.
      expect(task).toHaveBeenCalledTimes(1);
      release();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(task).toHaveBeenCalledTimes(2);
      stop();
      release();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(task).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never runs with 0 or Infinity, and holds no ref', () => {
    const before = process.getActiveResourcesInfo().length;
    const task = vi.fn(() => Promise.resolve());
    const stops = [startInterval(task, 0), startInterval(task, Number.POSITIVE_INFINITY), startInterval(task, 60_000)];
    expect(process.getActiveResourcesInfo().length).toBe(before);
    for (const stop of stops) stop();
    expect(task).not.toHaveBeenCalled();
  });
});

describe('Deadline', () => {
  it('expires after its time, keeping the process alive until then or until cleared', async () => {
    const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timeouts();
    const deadline = new Deadline(20);
    expect(timeouts()).toBe(before + 1);
    await deadline.expired;
    // At most as many as before: a timer of an earlier test may have ended meanwhile.
    expect(timeouts()).toBeLessThanOrEqual(before);
    const cleared = new Deadline(60_000);
    cleared.clear();
    expect(timeouts()).toBe(before);
    const never = new Deadline(Number.POSITIVE_INFINITY);
    expect(never.timeoutMs).toBe(Number.POSITIVE_INFINITY);
    expect(timeouts()).toBe(before);
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
    const shutdown = recorder.shutdown({ timeoutMs: 2_000 });
    // The deadline, ref'd: a fetch that hangs without a handle of its own must not let the
    // process exit before shutdown() resolves and reports what was not sent. It is set once
    // the stages are loaded (a dynamic import, whose pending read holds the loop meanwhile):
    // waited for, not assumed after one microtask, so that a loaded machine passes too.
    await vi.waitFor(() => expect(timeouts(process.getActiveResourcesInfo())).toBe(before + 1), { timeout: 1_500, interval: 5 });
    await shutdown;
    expect(errors).toEqual(['DeliveryError']);
    // At most as many as before: a timer of an earlier test may have ended meanwhile.
    expect(timeouts(process.getActiveResourcesInfo())).toBeLessThanOrEqual(before);
  });
});
