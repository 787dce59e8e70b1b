import { readFileSync } from 'node:fs';
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

/**
 * Throws unless Node reads the build's `.js` files as ES modules (the nearest
 * `package.json` says `"type": "module"`, as the repository's does). A build copied alone
 * (`cp -r dist /tmp/x`) has none: tsx, which the benchmarks run under, then compiles each
 * of its files again (to CommonJS, keeping names: an `__name()` call on every function
 * made), and measured `observeGoogleGenAI` at +25 µs a call where the same build in
 * place costs +11.
 */
function checkModuleType(dist: URL): void {
  for (let folder = dist; ; folder = new URL('../', folder)) {
    let text: string | undefined;
    try {
      text = readFileSync(new URL('package.json', folder), 'utf8');
    } catch {
      // None here: the folder above decides.
    }
    if (text !== undefined) {
      if ((JSON.parse(text) as { type?: unknown }).type === 'module') return;
      break;
    }
    if (folder.pathname === '/') break;
  }
  throw new Error(`bench: ${dist.pathname} is not read as ES modules: put a package.json with "type": "module" in it (or above it), else tsx recompiles it and the figures are not the build's`);
}

export async function loadSdk(): Promise<Sdk> {
  checkModuleType(DIST);
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
