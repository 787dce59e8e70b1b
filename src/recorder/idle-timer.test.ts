import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleTimer } from './idle-timer.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function watch(timeoutMs: number, clock: () => number, lastActivityAt: () => number) {
  const onIdle = vi.fn();
  const timer = new IdleTimer({ timeoutMs, now: clock, lastActivityAt, onIdle });
  return { onIdle, timer };
}

describe('IdleTimer', () => {
  it('fires once idle for the time-out, measured from the last activity', async () => {
    let time = 0;
    let last = 0;
    const { onIdle } = watch(1000, () => time, () => last);
    time = 600;
    last = 600;
    time = 1000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(onIdle).not.toHaveBeenCalled();
    time = 1600;
    await vi.advanceTimersByTimeAsync(600);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not fire once stopped', async () => {
    const { onIdle, timer } = watch(1000, () => Date.now(), () => 0);
    timer.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('waits full periods, without spinning, on a clock that returns NaN or goes backwards', async () => {
    let checks = 0;
    const { onIdle } = watch(
      1000,
      () => {
        checks += 1;
        return Number.NaN;
      },
      () => 0,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(onIdle).not.toHaveBeenCalled();
    expect(checks).toBe(10);
    expect(vi.getTimerCount()).toBe(1);
    const backwards = watch(1000, () => -5000, () => 0);
    await vi.advanceTimersByTimeAsync(999);
    expect(backwards.onIdle).not.toHaveBeenCalled();
  });
});
