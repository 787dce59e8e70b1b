import { describe, expect, it } from 'vitest';
import { BoundedJobs } from './bounded-jobs.js';

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
