import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DIST } from './sdk.js';

const ROUNDS = 21;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ImportResult {
  /** Median ms to import the main entry over median ms to import langfuse, fresh processes. */
  importMsVsLangfuse: number;
  /** The main entry as Node resolves `nebuly-client` (the `node` condition of `exports`). */
  sdkMs: number;
  /** `dist/index.js`, the build bundlers resolve (one module per source file), imported by Node. */
  bundlerBuildMs: number;
  langfuseMs: number;
  /** ms to import an empty module the same way: the floor of both. */
  emptyMs: number;
  rounds: number;
}

const run = promisify(execFile);

/** ms from `import()` called to resolved, in a fresh Node process. */
async function importMs(specifier: string): Promise<number> {
  const code = 'const s = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - s));';
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code, specifier], { cwd: ROOT });
  return Number(stdout);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Cold start: the main entry's import time against langfuse's (a comparable analytics
 * SDK), each in a fresh process, one after the other, ROUNDS times; medians.
 */
export async function benchImport(): Promise<ImportResult> {
  const sdk: number[] = [];
  const bundlerBuild: number[] = [];
  const langfuse: number[] = [];
  const empty: number[] = [];
  // What a Node user imports: the package name, resolved through `exports` (a
  // self-reference from the repository); a build of another commit, by its path.
  const entry = process.env.BENCH_DIST === undefined ? 'nebuly-client' : new URL('index.js', DIST).href;
  const bundlerEntry = new URL('index.js', DIST).href;
  const emptyModule = 'data:text/javascript,export default 1';
  await importMs(entry);
  await importMs('langfuse');
  await importMs(bundlerEntry);
  for (let round = 0; round < ROUNDS; round += 1) {
    sdk.push(await importMs(entry));
    langfuse.push(await importMs('langfuse'));
    bundlerBuild.push(await importMs(bundlerEntry));
    empty.push(await importMs(emptyModule));
  }
  return {
    importMsVsLangfuse: median(sdk) / median(langfuse),
    sdkMs: Number(median(sdk).toFixed(1)),
    bundlerBuildMs: Number(median(bundlerBuild).toFixed(1)),
    langfuseMs: Number(median(langfuse).toFixed(1)),
    emptyMs: Number(median(empty).toFixed(1)),
    rounds: ROUNDS,
  };
}
