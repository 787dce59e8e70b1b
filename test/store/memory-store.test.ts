import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/recorder/store/memory-store.js';
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

  it('forgets the oldest sent interactions past maxSentInteractions', () => {
    const store = memoryStore({ maxSentInteractions: 2 });
    store.append('c', 'u', [stored('1'), stored('2'), stored('3')], 0);
    const claim = store.claim('c', 0, 1_000) as Exclude<ReturnType<typeof store.claim>, Promise<unknown>>;
    store.complete(claim!, 1e12);
    expect(store.sent('c', '1', 0)).toBeUndefined();
    expect(store.sent('c', '3', 0)).toBeDefined();
  });
});
