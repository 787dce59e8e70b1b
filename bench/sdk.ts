import { pathToFileURL } from 'node:url';

/**
 * The built package, as a user gets it: the benchmarks measure `dist/`, not the sources,
 * so `npm run bench` builds first. The types come from the sources they were built from.
 */
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
