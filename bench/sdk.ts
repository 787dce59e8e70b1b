/**
 * The built package, as a user gets it: the benchmarks measure `dist/`, not the sources,
 * so `npm run bench` builds first. The types come from the sources they were built from.
 */
import type { NebulyError } from '../src/core/errors.js';

export type Sdk = typeof import('../src/index.js');
export type ReferenceServerModule = typeof import('../src/reference-server/index.js');

export const DIST = new URL('../dist/', import.meta.url);

export async function loadSdk(): Promise<Sdk> {
  return (await import(new URL('index.js', DIST).href)) as Sdk;
}

export async function loadReferenceServer(): Promise<ReferenceServerModule> {
  return (await import(new URL('reference-server.js', DIST).href)) as ReferenceServerModule;
}

/** A fetch that accepts everything at once, for benchmarks that must not measure a network. */
export const acceptingFetch: typeof fetch = async () => new Response(null, { status: 202 });

/**
 * A client whose recorder sends to {@link acceptingFetch}, with no idle time-out, and the
 * errors it reported: the benchmarks check them after a run.
 */
export function benchClient(sdk: Sdk) {
  const errors: NebulyError[] = [];
  const nebuly = new sdk.NebulyClient({
    apiKey: 'bench-key',
    baseUrl: 'http://127.0.0.1:9',
    fetch: acceptingFetch,
    onError: (error) => errors.push(error),
    recorder: { idleTimeoutMs: 0 },
  });
  return { nebuly, errors };
}
