import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/recorder/store/memory-store.js';
import type { SentInteraction } from '../../src/types/store.js';
import { describeStoreContract, stored } from './store-contract.js';

describeStoreContract({ name: 'memoryStore', make: async () => memoryStore() });

describe('memoryStore', () => {
  it('counts open conversations and knows the earliest activity, in O(1)', () => {
    const store = memoryStore();
    expect(store.openCount?.()).toBe(0);
    expect(store.earliestActivity?.()).toBeUndefined();
    store.append('a', 'u', [stored('1')], 10);
    store.append('b', 'u', [stored('2')], 20);
    store.append('a', 'u', [stored('3')], 30);
    expect(store.openCount?.()).toBe(2);
    expect(store.earliestActivity?.()).toBe(20);
  });

  it('gives back each kept input and output exactly, whatever their characters, after others of their batch were forgotten', () => {
    const store = memoryStore();
    const texts = ['', 'plain', 'café ☕ 日本', 'pair 😀 end', 'lone \ud800 high', 'lone \udc00 low'];
    const send = (conversation: string, inputs: string[]) => {
      store.append(conversation, 'u', inputs.map((input, n) => stored(`${conversation}${n}`, input)), 0);
      const claim = store.claim(conversation, 0, 1_000) as Exclude<ReturnType<typeof store.claim>, Promise<unknown>>;
      store.complete(claim!, 1e12);
    };
    // A batch without a lone surrogate (its text packed), one with (its strings kept), and
    // one too long to pack at once (its strings kept).
    const long = [texts[2]!.repeat(10_000), 'short'];
    send('a', texts.slice(0, 4));
    send('b', texts);
    send('l', long);
    for (const [conversation, inputs] of [['a', texts.slice(0, 4)], ['b', texts], ['l', long]] as const) {
      inputs.forEach((input, n) => {
        const sent = store.sent(conversation, `${conversation}${n}`, 0) as SentInteraction | undefined;
        expect(sent?.input).toBe(input);
        expect(sent?.output).toBe(`out ${conversation}${n}`);
      });
    }
    // Past the bound the oldest of a batch goes: the rest of it is still read right.
    const c = memoryStore({ maxSentInteractions: 3 });
    c.append('x', 'u', texts.slice(1, 4).map((input, n) => stored(`x${n}`, input)), 0);
    const claim = c.claim('x', 0, 1_000) as Exclude<ReturnType<typeof c.claim>, Promise<unknown>>;
    c.complete(claim!, 1e12);
    c.append('y', 'u', [stored('y0', 'é')], 0);
    const other = c.claim('y', 0, 1_000) as Exclude<ReturnType<typeof c.claim>, Promise<unknown>>;
    c.complete(other!, 1e12);
    expect(c.sent('x', 'x0', 0)).toBeUndefined();
    expect((c.sent('x', 'x1', 0) as SentInteraction).input).toBe(texts[2]);
    expect((c.sent('x', 'x2', 0) as SentInteraction).input).toBe(texts[3]);
    expect((c.sent('x', 'x2', 0) as SentInteraction).output).toBe('out x2');
    expect((c.sent('y', 'y0', 0) as SentInteraction).input).toBe('é');
  });

  it('forgets the oldest sent interactions past maxSentInteractions', () => {
    const store = memoryStore({ maxSentInteractions: 2 });
    store.append('c', 'u', [stored('1'), stored('2'), stored('3')], 0);
    const claim = store.claim('c', 0, 1_000) as Exclude<ReturnType<typeof store.claim>, Promise<unknown>>;
    store.complete(claim!, 1e12);
    expect(store.sent('c', '1', 0)).toBeUndefined();
    expect(store.sent('c', '3', 0)).toBeDefined();
  });

  it('keeps a sent interaction sent again as the newest, and forgets past the bound however many are sent', () => {
    const store = memoryStore({ maxSentInteractions: 3 });
    const send = (conversation: string, ids: string[]) => {
      store.append(conversation, 'u', ids.map((id) => stored(id)), 0);
      const claim = store.claim(conversation, 0, 1_000) as Exclude<ReturnType<typeof store.claim>, Promise<unknown>>;
      store.complete(claim!, 1e12);
    };
    send('a', ['1', '2']);
    send('b', ['3']);
    // '1' again: now the newest, so '2' is the oldest when one more comes.
    send('a', ['1']);
    send('c', ['4']);
    expect(store.sent('a', '2', 0)).toBeUndefined();
    expect(store.sent('a', '1', 0)).toBeDefined();
    expect(store.sent('b', '3', 0)).toBeDefined();
    expect(store.sent('c', '4', 0)).toBeDefined();
    // Thousands more: still only the newest three.
    for (let n = 0; n < 5_000; n += 1) send(`many-${n}`, [`m${n}`]);
    expect(store.sent('many-4999', 'm4999', 0)).toBeDefined();
    expect(store.sent('many-4997', 'm4997', 0)).toBeDefined();
    expect(store.sent('many-4996', 'm4996', 0)).toBeUndefined();
    expect(store.sent('c', '4', 0)).toBeUndefined();
  });

  it('forgets the oldest sent interactions past maxSentBytes too: large ones are not kept by the thousand', () => {
    // Each 100,000-character input counts 200 kB (2 bytes a character): two fit in 500 kB.
    const store = memoryStore({ maxSentInteractions: 10_000, maxSentBytes: 500_000 });
    const big = 'x'.repeat(100_000);
    for (const id of ['1', '2', '3']) {
      store.append(`c${id}`, 'u', [stored(id, big)], 0);
      const claim = store.claim(`c${id}`, 0, 1_000) as Exclude<ReturnType<typeof store.claim>, Promise<unknown>>;
      store.complete(claim!, 1e12);
    }
    expect(store.sent('c1', '1', 0)).toBeUndefined();
    const inputOf = (conversation: string, id: string) => (store.sent(conversation, id, 0) as SentInteraction | undefined)?.input;
    expect(inputOf('c2', '2')).toBe(big);
    expect(inputOf('c3', '3')).toBe(big);
    // Small ones still fill up to the count bound.
    for (let n = 0; n < 100; n += 1) {
      store.append(`s${n}`, 'u', [stored(`s${n}`)], 0);
      const claim = store.claim(`s${n}`, 0, 1_000) as Exclude<ReturnType<typeof store.claim>, Promise<unknown>>;
      store.complete(claim!, 1e12);
    }
    expect(store.sent('s0', 's0', 0)).toBeDefined();
    expect(store.sent('s99', 's99', 0)).toBeDefined();
  });

  it("keeps interactions kept one at a time (delivery: 'interaction'), each until its own time", () => {
    const store = memoryStore();
    store.keep('a', 'u', [stored('1')], 0, 100);
    store.keep('a', 'u', [stored('2')], 0, 200);
    store.keep('b', 'u', [stored('3')], 0, 200);
    expect(store.sent('a', '1', 50)).toBeDefined();
    expect(store.sent('a', '2', 50)).toBeDefined();
    expect(store.sent('a', '1', 150)).toBeUndefined();
    expect(store.sent('a', '2', 150)).toBeDefined();
    expect(store.sent('b', '3', 150)).toBeDefined();
    // Forgotten once expired, whatever time asks next.
    expect(store.sent('a', '1', 50)).toBeUndefined();
    expect(store.sent('a', '3', 50)).toBeUndefined();
  });

  it('counts an interaction kept twice once against maxSentInteractions', () => {
    const store = memoryStore({ maxSentInteractions: 2 });
    store.keep('b', 'u', [stored('y')], 0, 1e12);
    store.keep('a', 'u', [stored('x', 'first')], 0, 1e12);
    store.keep('a', 'u', [stored('x', 'again')], 0, 1e12);
    expect((store.sent('a', 'x', 0) as SentInteraction | undefined)?.input).toBe('again');
    expect(store.sent('b', 'y', 0)).toBeDefined();
    store.keep('c', 'u', [stored('z')], 0, 1e12);
    expect(store.sent('b', 'y', 0)).toBeUndefined();
    expect(store.sent('a', 'x', 0)).toBeDefined();
    expect(store.sent('c', 'z', 0)).toBeDefined();
  });
});
