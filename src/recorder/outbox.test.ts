import { describe, expect, it } from 'vitest';
import { CUT, Cutoff, Ledger } from './outbox.js';

const isSettled = async (promise: Promise<void>) => {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
};

describe('Ledger', () => {
  it('resolves at once when nothing is running', async () => {
    expect(await isSettled(new Ledger().whenDone())).toBe(true);
  });

  it('waits for every job begun before the call, in whatever order they finish, and not for later ones', async () => {
    const ledger = new Ledger();
    const [a, b, c] = [ledger.begin(), ledger.begin(), ledger.begin()];
    const done = ledger.whenDone();
    const later = ledger.begin();
    expect(ledger.count).toBe(4);
    ledger.finish(c);
    ledger.finish(a);
    expect(await isSettled(done)).toBe(false);
    ledger.finish(b);
    expect(await isSettled(done)).toBe(true);
    expect(ledger.count).toBe(1);
    const last = ledger.whenDone();
    expect(await isSettled(last)).toBe(false);
    ledger.finish(later);
    expect(await isSettled(last)).toBe(true);
    expect(ledger.count).toBe(0);
  });

  it('resolves every wait once an older unit that stayed open is over, however many finished after it', async () => {
    const ledger = new Ledger();
    const stuck = ledger.begin();
    const first = ledger.whenDone();
    const units = Array.from({ length: 10_000 }, () => ledger.begin());
    const second = ledger.whenDone();
    const third = ledger.whenDone();
    for (const unit of units) ledger.finish(unit);
    expect(ledger.count).toBe(1);
    expect(await isSettled(first)).toBe(false);
    expect(await isSettled(second)).toBe(false);
    ledger.finish(stuck);
    expect(await isSettled(first)).toBe(true);
    expect(await isSettled(second)).toBe(true);
    expect(await isSettled(third)).toBe(true);
    expect(ledger.count).toBe(0);
  });
});

describe('Cutoff', () => {
  it('answers the work\'s value, or CUT once it passes first; a race that settled keeps nothing waiting', async () => {
    const cutoff = new Cutoff();
    const values = await Promise.all(Array.from({ length: 1_000 }, (_, i) => cutoff.race(Promise.resolve(i))));
    expect(values[999]).toBe(999);
    await expect(cutoff.race(Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(cutoff.racing).toBe(0);
    const hung = cutoff.race(new Promise<never>(() => undefined));
    expect(cutoff.racing).toBe(1);
    cutoff.pass(new Error('deadline'));
    await expect(hung).resolves.toBe(CUT);
    expect(cutoff.racing).toBe(0);
    await expect(cutoff.race(Promise.resolve(1))).resolves.toBe(CUT);
  });
});
