import { afterEach, describe, expect, it, vi } from 'vitest';
import { Buckets } from '../../src/redis/buckets.js';
import { Doubts } from '../../src/redis/doubts.js';

const [first, second] = new Buckets('test:', 2).all;

describe('Doubts', () => {
  afterEach(() => vi.useRealTimers());

  it('asks at once, again at twice the age of a doubt while it told nothing, and forgets it once it told or its time is over', () => {
    vi.useFakeTimers({ now: 0 });
    const doubts = new Doubts(60_000);
    doubts.add(first!, 'c-1', 't-1');
    doubts.add(second!, 'c-2', 't-2');
    const due = doubts.due();
    expect([...due.keys()]).toEqual([first, second]);
    const [one] = due.get(first!)!;
    const [two] = due.get(second!)!;
    // c-1 told nothing yet (its call may still be queued): asked again in a second, then at twice its age.
    doubts.answered(one!, false);
    doubts.answered(two!, true);
    expect(doubts.due().size).toBe(0);
    vi.setSystemTime(1_000);
    expect(doubts.due().get(first!)).toEqual([one]);
    doubts.answered(one!, false);
    vi.setSystemTime(1_999);
    expect(doubts.due().size).toBe(0);
    vi.setSystemTime(2_000);
    expect(doubts.due().get(first!)).toEqual([one]);
    // Past its time: forgotten, asked no more.
    vi.setSystemTime(60_001);
    expect(doubts.due().size).toBe(0);
  });
});
