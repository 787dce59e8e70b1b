import { afterEach, describe, expect, it } from 'vitest';
import type { AcceptedResponse } from '../core/http.js';
import { CUT, Cutoff, Ledger, Outbox, type DeliveryRequest, type Transport } from './outbox.js';
import { resetSlices } from './worker.js';

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

describe('Outbox pacing', () => {
  afterEach(() => resetSlices());

  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const outboxOf = (transport: Transport) =>
    new Outbox({ transport, report: () => undefined, maxConcurrentSends: 32, maxQueuedConversations: 1_000, maxQueuedBytes: 1e9 });
  const publish = (outbox: Outbox, i: number) =>
    outbox.publish({ conversationId: `c-${i}`, path: '/p', body: new Uint8Array(8), idempotencyKey: `k-${i}` });

  it('sends nothing before its transport has loaded, nor in the turn it loaded in', async () => {
    let loaded!: () => void;
    const loading = new Promise<void>((resolve) => (loaded = resolve));
    let ready = false;
    const sent: DeliveryRequest[] = [];
    const outbox = outboxOf({
      ready: () => (ready ? undefined : loading),
      deliver: (request) => {
        sent.push(request);
        return Promise.resolve({ status: 202 } as AcceptedResponse);
      },
    });
    const outcomes = Array.from({ length: 32 }, (_, i) => publish(outbox, i));
    await turn();
    expect(sent).toHaveLength(0);
    ready = true;
    loaded();
    await Promise.resolve();
    await Promise.resolve();
    expect(sent).toHaveLength(0);
    const delivered = await Promise.all(outcomes);
    expect(sent).toHaveLength(32);
    expect(delivered.every((outcome) => outcome.status === 'delivered')).toBe(true);
  });

  it('settles responses that arrive together in slices, not all in the turn they arrive in', async () => {
    const answers: (() => void)[] = [];
    const outbox = outboxOf({
      deliver: () => new Promise<AcceptedResponse>((resolve) => answers.push(() => resolve({ status: 202 } as AcceptedResponse))),
    });
    let settled = 0;
    const outcomes = Array.from({ length: 32 }, (_, i) =>
      publish(outbox, i).then((outcome) => {
        // What a conversation's outcome runs (the sender telling the store, the next job): 0.5 ms.
        const until = performance.now() + 0.5;
        while (performance.now() < until);
        settled += 1;
        return outcome;
      }),
    );
    while (answers.length < 32) await turn();
    await turn();
    // The 32 responses arrive in one turn, as in one poll of the loop: each in a callback
    // of its own, its microtasks (and ticks) run before the next, no turn of the loop between.
    for (const answer of answers.splice(0)) {
      answer();
      await new Promise((resolve) => process.nextTick(resolve));
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(settled).toBeGreaterThan(0);
    expect(settled).toBeLessThan(16);
    await Promise.all(outcomes);
    expect(settled).toBe(32);
  });
});
