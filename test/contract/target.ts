import { afterEach, beforeEach } from 'vitest';
import { NebulyClient, type ClientOptions } from '../../src/index.js';
import type { ReferenceOptions, ReferenceState } from '../../src/reference-server/index.js';

/** The configured keys: two for project A (they share its data), one for project B. */
export const KEY_A = 'contract-key-a';
export const KEY_A2 = 'contract-key-a-second';
export const KEY_B = 'contract-key-b';
export const PROJECT_A = 'project-a';
export const PROJECT_B = 'project-b';
export const API_KEYS = { [KEY_A]: PROJECT_A, [KEY_A2]: PROJECT_A, [KEY_B]: PROJECT_B };

/** One way of running the reference (MSW handlers, live server), as the cases see it. */
export interface ContractTarget extends ReferenceState {
  readonly baseUrl: string;
  /** The real client, pointed at the target; no retries unless `options` asks. */
  client(apiKey?: string, options?: ClientOptions): NebulyClient;
  /** A raw request to a path of the target, for what the client cannot send. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a fresh reference (empty store, no faults) with the given options. */
export type TargetFactory = (options: ReferenceOptions) => Promise<ContractTarget>;

/** Wraps what a way of running the reference returns into a {@link ContractTarget}. */
export function toTarget(baseUrl: string, state: ReferenceState, close: () => Promise<void>): ContractTarget {
  return {
    baseUrl,
    store: state.store,
    faults: state.faults,
    requests: state.requests,
    client: (apiKey = KEY_A, options = {}) =>
      new NebulyClient({ apiKey, baseUrl, maxRetries: 0, retryDelayMs: 1, onError: () => undefined, ...options }),
    // Looked up at call time: MSW patches globalThis.fetch after this module loads.
    fetch: (path, init) => globalThis.fetch(baseUrl + path, init),
    close,
  };
}

/**
 * A fresh target for each test of the enclosing `describe`, closed after it. Returns an
 * accessor, since the target exists only once `beforeEach` has run.
 */
export function useTarget(factory: TargetFactory, options: Partial<ReferenceOptions> = {}): () => ContractTarget {
  let current: ContractTarget | undefined;
  beforeEach(async () => {
    current = await factory({ apiKeys: API_KEYS, ...options });
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('the target exists only inside a test');
    return current;
  };
}

/** Headers of a raw request with an API key. */
export function authorized(apiKey = KEY_A): Record<string, string> {
  return { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
}
