import type { ConversationStore } from '../../types/store.js';
// The class lives apart, in memory-store-class.ts, for bundles: the recorder loads it with
// its stages, at their first use, and esbuild would load with the package root any module
// the root re-exports a name of (`memoryStore`) that a lazily loaded module also imports.
import { MemoryStore } from './memory-store-class.js';

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /**
   * The most interactions of sent conversations kept for feedback and tags that arrive
   * later (`nebuly.feedback()`, `nebuly.tag()`), oldest forgotten first; each also goes at its `retainUntil`.
   * @default 10_000
   */
  maxSentInteractions?: number | undefined;
  /**
   * The most memory those kept interactions may take, in bytes, counted as 2 a character
   * of their input and output (the most V8 takes) plus their end user: large interactions
   * are forgotten sooner, so that 10,000 of 1 MB each are never held.
   * @default 32 MiB
   */
  maxSentBytes?: number | undefined;
}

/**
 * The store of one process: open conversations in its memory, lost with it. The default
 * of `recorder.store`. Finding the idlest conversation, marking one active and claiming
 * one each cost O(1): the open conversations are a list in order of last activity, an
 * active one moved to its end.
 *
 * @example
 * ```ts
 * const nebuly = new NebulyClient({ recorder: { store: memoryStore({ maxSentInteractions: 1_000 }) } });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): ConversationStore {
  return new MemoryStore(options.maxSentInteractions, options.maxSentBytes);
}
