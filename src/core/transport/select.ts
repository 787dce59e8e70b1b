import { fetchTransport } from './fetch.js';
import { nodeModules, nodeTransport } from './node.js';
import type { Transport } from './types.js';

/**
 * Which transport a client uses: `'fetch'` forces the platform's `fetch` (for tests of
 * it on Node); by default, the user's `fetch` when given, else `node:http` on Node,
 * else the platform's `fetch`.
 *
 * @example
 * ```ts
 * const choice: TransportChoice = 'fetch';
 * ```
 */
export type TransportChoice = 'auto' | 'fetch';

/**
 * The transport of a client, made at its first request: a `fetch` of the user's always
 * wins; on Node, `node:http` with keep-alive and the proxy variables; elsewhere (Bun,
 * Deno, workers, browsers, Node before 20.16) the platform's `fetch`, looked up at each
 * call so that a `fetch` patched later (MSW) is the one used.
 *
 * @example
 * ```ts
 * const transport = chooseTransport(options.fetch);
 * ```
 */
export function chooseTransport(customFetch: typeof globalThis.fetch | undefined, choice: TransportChoice = 'auto'): Transport {
  if (customFetch !== undefined) return fetchTransport(customFetch, 'custom fetch');
  const modules = choice === 'auto' ? nodeModules() : undefined;
  if (modules !== undefined) return nodeTransport(modules);
  return fetchTransport((input, init) => globalThis.fetch(input, init), 'fetch');
}
