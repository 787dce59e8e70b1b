import { describe, expect, it } from 'vitest';
import { Progress } from './progress.js';

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
