/**
 * The built package, as a user gets it: the benchmarks measure `dist/`, not the sources,
 * so `npm run bench` builds first. The types come from the sources they were built from.
 */
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
