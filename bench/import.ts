import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DIST } from './sdk.js';

const ROUNDS = 21;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ImportResult {
  /**
   * Median ms to import the main entry and make a `NebulyClient` over median ms to import
   * langfuse and make a `Langfuse`, fresh processes.
   */
  importMsVsLangfuse: number;
  /** The main entry as Node resolves `nebuly-client` (the `node` condition of `exports`), and `new NebulyClient`. */
  sdkMs: number;
  /** `dist/index.js`, the build bundlers resolve (one module per source file), imported by Node. */
  bundlerBuildMs: number;
  langfuseMs: number;
  /** ms to import an empty module the same way: the floor of both. */
  emptyMs: number;
  rounds: number;
}

const run = promisify(execFile);

/**
 * What each side makes once imported: a client with a key, as a user's first line does.
 * Exits at once: a client may hold timers, and the figure is taken already.
 */
const CONSTRUCT: Record<string, string> = {
  nebuly: "new m.NebulyClient({ apiKey: 'key' });",
  langfuse: "new m.Langfuse({ publicKey: 'pk-lf-bench', secretKey: 'sk-lf-bench' });",
  none: '',
};

/** ms from `import()` called to the client made, in a fresh Node process. */
async function importMs(specifier: string, construct: keyof typeof CONSTRUCT): Promise<number> {
  const code =
    `const s = performance.now(); const m = await import(process.argv[1]); ${CONSTRUCT[construct]} ` +
    'process.stdout.write(String(performance.now() - s)); process.exit(0);';
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code, specifier], { cwd: ROOT });
  return Number(stdout);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Cold start: importing the main entry and making a client, against the same for langfuse
 * (a comparable analytics SDK), each in a fresh process, one after the other, ROUNDS
 * times; medians.
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
  await importMs(entry, 'nebuly');
  await importMs('langfuse', 'langfuse');
  await importMs(bundlerEntry, 'nebuly');
  for (let round = 0; round < ROUNDS; round += 1) {
    sdk.push(await importMs(entry, 'nebuly'));
    langfuse.push(await importMs('langfuse', 'langfuse'));
    bundlerBuild.push(await importMs(bundlerEntry, 'nebuly'));
    empty.push(await importMs(emptyModule, 'none'));
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
