import { pathToFileURL } from 'node:url';

/**
 * The built package, as a user gets it: the benchmarks measure `dist/`, not the sources,
 * so `npm run bench` builds first. The types come from the sources they were built from.
 */
import type { NebulyError } from '../src/core/errors.js';

export type Sdk = typeof import('../src/index.js');
export type ReferenceServerModule = typeof import('../src/reference-server/index.js');

/**
 * The build to measure: `dist/`, or the folder in BENCH_DIST (a build of another commit,
 * to compare before and after in the same conditions).
 */
export const DIST =
  process.env.BENCH_DIST === undefined
    ? new URL('../dist/', import.meta.url)
    : pathToFileURL(`${process.env.BENCH_DIST.replace(/\/+$/, '')}/`);

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
