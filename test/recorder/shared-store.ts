import { memoryStore } from '../../src/recorder/store/memory-store.js';
import type { ConversationStore } from '../../src/types/store.js';

/**
 * One memory store for several clients, marked shared: what a Redis store is to several
 * instances, in one process (the Redis store runs the same flows against a real
 * redis-server in test/store/).
 */
export function sharedStore(): ConversationStore {
  const store = memoryStore();
  return new Proxy(store, {
    get: (target, name) => {
      if (name === 'shared') return true;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
