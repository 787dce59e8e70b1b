import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoundedJobs, LANE, type Lane, pace, paced, resetSlices, SLICE_MS } from './worker.js';

/** Ends the current slice the way its time limit would: by spending its units. */
function spendSlice(): void {
  while (pace(LANE.send) === undefined);
}

/** A job that waits in `lanes` in turn, noting each step it takes in `log`. */
async function job(name: string, lanes: readonly Lane[], log: string[]): Promise<void> {
  for (const [step, lane] of lanes.entries()) {
    await paced(lane);
    log.push(`${name}${step}`);
  }
}

afterEach(() => {
  vi.useRealTimers();
  resetSlices();
});

describe('pace', () => {
  it('lets work go on at once while the slice lasts and nothing waits', () => {
    expect(pace(LANE.store)).toBeUndefined();
    expect(pace(LANE.send)).toBeUndefined();
  });

  it('makes work wait for the host once the slice is spent, and everything after it too', async () => {
    spendSlice();
    let resumed = false;
    const waiting = pace(LANE.store);
    expect(waiting).toBeInstanceOf(Promise);
    void waiting?.then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    await waiting;
    expect(resumed).toBe(true);
  });

  it(`ends a slice once ${SLICE_MS} ms have passed, however few units it ran`, () => {
    // The clock alone is fake: the slice still ends on the host's next turn, for real.
    vi.useFakeTimers({ toFake: ['performance'] });
    expect(pace(LANE.store)).toBeUndefined();
    vi.advanceTimersByTime(SLICE_MS - 0.5);
    expect(pace(LANE.store)).toBeUndefined();
    vi.advanceTimersByTime(0.5);
    expect(pace(LANE.store)).toBeInstanceOf(Promise);
  });

  it('resumes the work nearest the wire first, and in a lane the work that waited first', async () => {
    spendSlice();
    const log: string[] = [];
    const jobs = [
      job('store', [LANE.store], log),
      job('endA', [LANE.end], log),
      job('send', [LANE.send], log),
      job('endB', [LANE.end], log),
    ];
    await Promise.all(jobs);
    expect(log).toEqual(['send0', 'endA0', 'endB0', 'store0']);
  });

  it('carries a conversation on to the wire before other conversations begin', async () => {
    spendSlice();
    const log: string[] = [];
    // Three conversations end together; each is claimed (end lane), then built (send lane, twice).
    const conversations = ['a', 'b', 'c'].map((name) => job(name, [LANE.end, LANE.send, LANE.send], log));
    spendSlice();
    await Promise.all(conversations);
    expect(log).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'c0', 'c1', 'c2']);
  });
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedJobs', () => {
  it('runs at most `max` at a time, frees a place on hand-over, and says when there is room', async () => {
    const started: number[] = [];
    const handOvers = new Map<number, () => void>();
    const finishes = new Map<number, () => void>();
    const jobs = new BoundedJobs<number>({
      max: 2,
      run: (n, handOver) => {
        started.push(n);
        handOvers.set(n, handOver);
        return new Promise<void>((resolve) => finishes.set(n, resolve));
      },
    });
    for (const n of [1, 2, 3]) jobs.add(n);
    await turn();
    expect(started).toEqual([1, 2]);
    let room: number | undefined;
    void jobs.whenRoom().then((free) => (room = free));
    await turn();
    expect(room).toBeUndefined();
    handOvers.get(1)?.();
    await turn();
    // Job 3 took the place job 1 handed over: still no room.
    expect(started).toEqual([1, 2, 3]);
    expect(room).toBeUndefined();
    finishes.get(2)?.();
    await turn();
    expect(room).toBe(1);
    expect(jobs.count).toBe(2);
    finishes.get(1)?.();
    finishes.get(3)?.();
    await turn();
    expect(jobs.count).toBe(0);
  });
});
