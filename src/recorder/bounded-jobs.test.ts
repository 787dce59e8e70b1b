import { describe, expect, it } from 'vitest';
import { BoundedJobs, Progress } from './bounded-jobs.js';

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
    const settled = jobs.settledAll();
    finishes.get(2)?.();
    await turn();
    expect(room).toBe(1);
    expect(jobs.count).toBe(2);
    finishes.get(1)?.();
    finishes.get(3)?.();
    await settled;
    expect(jobs.count).toBe(0);
  });
});

const isSettled = async (promise: Promise<void>) => {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
};

describe('Progress', () => {
  it('resolves at once when nothing is running', async () => {
    expect(await isSettled(new Progress().whenDone())).toBe(true);
  });

  it('waits for every job begun before the call, in whatever order they finish, and not for later ones', async () => {
    const progress = new Progress();
    const [a, b, c] = [progress.begin(), progress.begin(), progress.begin()];
    const done = progress.whenDone();
    const later = progress.begin();
    expect(progress.count).toBe(4);
    progress.finish(c);
    progress.finish(a);
    expect(await isSettled(done)).toBe(false);
    progress.finish(b);
    expect(await isSettled(done)).toBe(true);
    expect(progress.count).toBe(1);
    const last = progress.whenDone();
    expect(await isSettled(last)).toBe(false);
    progress.finish(later);
    expect(await isSettled(last)).toBe(true);
    expect(progress.count).toBe(0);
  });
});
