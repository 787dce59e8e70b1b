import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeAll } from './sending.js';
import { Tally } from './delivery-report.js';
import { resetSlices } from './worker.js';
import { Deadline } from './timers.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  resetSlices();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets slices (setImmediate, not faked) and microtasks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('closeAll', () => {
  it('lets go of the open conversations as the backlog has room, woken as sends settle, and of all of them once the deadline passes', async () => {
    const letGo: number[] = [];
    const open = Array.from({ length: 10 }, (_, i) => i);
    let room = 3;
    let freed = () => {};
    let expired: Error | undefined;
    const report = new Tally().report();
    const closed = closeAll(
      {
        next: () => open[0],
        letGo: (conversation) => {
          open.shift();
          letGo.push(conversation);
          room -= 1;
        },
        room: () => room,
        onRoom: (wake) => (freed = wake),
        expire: (reason) => (expired = reason),
        settled: () => Promise.resolve(),
        report: () => report,
      },
      new Deadline(1_000),
    );
    await settle();
    expect(letGo).toEqual([0, 1, 2]);
    room = 2; // two were sent: no timer runs, the wave resumes when told
    await settle();
    expect(letGo).toEqual([0, 1, 2]);
    freed();
    await settle();
    expect(letGo).toEqual([0, 1, 2, 3, 4]);
    // Nothing more is sent: at the deadline, the rest are let go at once, to be reported.
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(letGo).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(expired?.message).toBe('shutdown() did not finish within 1000 ms');
    await expect(closed).resolves.toBe(report);
  });
});
