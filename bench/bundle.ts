import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { DIST } from './sdk.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a user's module does with the SDK, and the gzipped size the issue allows it (issue 20). */
interface Scenario {
  code: string;
  /** Bytes, min+gz, of what loads eagerly; `undefined`: no target, reported only. */
  targetGzipBytes: number | undefined;
}

const RECORD = `
const conversation = nebuly.startConversation({ end_user: 'user' });
const turn = conversation.interaction({ input: 'Hi' });
turn.llm({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello' });
turn.end({ output: 'Hello' });
await conversation.end();
`;
const CALL = `
await nebuly.eligibleUsers.list();
await nebuly.interactions.send({
  interaction: { conversation_id: 'c', input: 'Hi', output: 'Hello', time_start: new Date(), time_end: new Date(), end_user: 'user' },
  traces: [],
});
`;
const CLIENT = `const nebuly = new NebulyClient({ apiKey: 'key' });\n`;

/** The three user bundles of issue 20: the recorder alone, the typed client alone, both. */
export const SCENARIOS = {
  recorderOnly: { code: CLIENT + RECORD, targetGzipBytes: 16_000 },
  clientOnly: { code: CLIENT + CALL, targetGzipBytes: undefined },
  clientAndRecorder: { code: CLIENT + CALL + RECORD, targetGzipBytes: 21_000 },
} satisfies Record<string, Scenario>;

export type ScenarioName = keyof typeof SCENARIOS;

export interface ScenarioResult {
  /**
   * Gzipped bytes of what loads before the user's code runs: with code splitting, the
   * entry chunk and every chunk it imports statically (each gzipped on its own, as each
   * is fetched on its own). What `import()` loads later is not counted here.
   */
  eagerGzipBytes: number;
  /** Minified bytes of the same. */
  eagerMinifiedBytes: number;
  /** Gzipped bytes of the whole bundle as one file (no splitting): lazy parts included. */
  singleFileGzipBytes: number;
  singleFileMinifiedBytes: number;
  targetGzipBytes: number | undefined;
  /** Minified bytes of the eager part, built from the sources, by origin: zod, ky, each folder of `src/`. */
  eagerMinifiedBytesBy: Record<string, number>;
  /**
   * Gzipped bytes of the eager part when `NebulyClient` is imported from `src/client.ts`
   * instead of the package root: without the root's other exports. esbuild loads with the
   * entry a module a lazy chunk shares with it when the entry re-exports a name it
   * declares, used or not (docs/decisions/0004-pay-for-what-you-use.md): the difference
   * from the root's figure is what such exports still cost.
   */
  clientModuleEagerGzipBytes: number;
}

export interface BundleResult {
  scenarios: Record<ScenarioName, ScenarioResult>;
  /**
   * Gzipped bytes of a bundle that imports only `usdToMicroDollars` from the built
   * package: what tree-shaking leaves of it (no client, no ky, no zod).
   */
  builderOnlyGzipBytes: number;
  /** The heaviest inputs of the client + recorder bundle's eager part, from the sources, minified bytes. */
  heaviestEagerInputs: { input: string; bytes: number }[];
}

/** `node_modules/zod/v4/core/schemas.js` → `zod`; `src/recorder/turn.ts` → `src/recorder`. */
function origin(input: string): string {
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (module?.[1] !== undefined) return module[1];
  const folder = /^(src\/[^/]+)\//.exec(input);
  return folder?.[1] ?? input;
}

export interface Built {
  minified: number;
  gzip: number;
  /** Minified bytes of each input in what was counted. */
  inputs: Record<string, number>;
  /** The text of what was counted, its files one after the other. */
  text: string;
}

/**
 * A user's module bundled as their bundler would for a browser or a worker: esm, minified,
 * tree-shaken. With `splitting`, only what loads eagerly is counted: the entry and the
 * closure of its static imports.
 *
 * @example
 * ```ts
 * const { gzip, text } = await bundle(`import { NebulyClient } from '/abs/dist/index.js';\n${SCENARIOS.recorderOnly.code}`, true);
 * ```
 */
export async function bundle(contents: string, splitting: boolean): Promise<Built> {
  const dir = await mkdtemp(join(tmpdir(), 'nebuly-bundle-'));
  try {
    const entry = join(dir, 'user-entry.js');
    await writeFile(entry, contents);
    const result = await build({
      entryPoints: [entry],
      absWorkingDir: ROOT,
      bundle: true,
      minify: true,
      treeShaking: true,
      splitting,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      outdir: join(dir, 'out'),
      logLevel: 'silent',
    });
    const files = new Map((result.outputFiles ?? []).map((file) => [file.path, file.contents]));
    const outputs = (result.metafile as Metafile).outputs;
    const absolute = (output: string) => join(ROOT, output);
    // The user's entry: each lazy chunk names an entry point too (the module `import()` loads).
    const start = Object.keys(outputs).find((output) => outputs[output]?.entryPoint?.endsWith('user-entry.js') === true) as string;
    const eager = new Set<string>([start]);
    for (const output of eager) {
      for (const { path, kind } of outputs[output]?.imports ?? []) {
        if (kind === 'import-statement' && path in outputs) eager.add(path);
      }
    }
    let minified = 0;
    let gzip = 0;
    let text = '';
    const inputs: Record<string, number> = {};
    for (const output of eager) {
      const contents = files.get(absolute(output)) ?? new Uint8Array();
      text += new TextDecoder().decode(contents);
      minified += contents.length;
      gzip += gzipSync(contents).length;
      for (const [input, { bytesInOutput }] of Object.entries(outputs[output]?.inputs ?? {})) {
        inputs[input] = (inputs[input] ?? 0) + bytesInOutput;
      }
    }
    return { minified, gzip, inputs, text };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function byOrigin(inputs: Record<string, number>): Record<string, number> {
  const groups: Record<string, number> = {};
  for (const [input, bytes] of Object.entries(inputs)) groups[origin(input)] = (groups[origin(input)] ?? 0) + bytes;
  return Object.fromEntries(Object.entries(groups).sort((a, b) => b[1] - a[1]));
}

/**
 * The main entry as a user's bundler sees it, from the built `dist/index.js`, for each
 * scenario: the eager part with code splitting (the figure against the targets: rarely
 * used paths load when first needed) and the whole as one file. The breakdown by origin
 * bundles the sources the same way.
 */
export async function benchBundle(): Promise<BundleResult> {
  const index = fileURLToPath(new URL('index.js', DIST));
  const sources = join(ROOT, 'src/index.ts');
  const scenarios = {} as Record<ScenarioName, ScenarioResult>;
  let heaviestEagerInputs: BundleResult['heaviestEagerInputs'] = [];
  const importing = (from: string) => `import { NebulyClient } from ${JSON.stringify(from)};\n`;
  for (const [name, { code, targetGzipBytes }] of Object.entries(SCENARIOS) as [ScenarioName, Scenario][]) {
    const eager = await bundle(importing(index) + code, true);
    const single = await bundle(importing(index) + code, false);
    const fromSources = await bundle(importing(sources) + code, true);
    const fromClientModule = await bundle(importing(join(ROOT, 'src/client.ts')) + code, true);
    scenarios[name] = {
      eagerGzipBytes: eager.gzip,
      eagerMinifiedBytes: eager.minified,
      singleFileGzipBytes: single.gzip,
      singleFileMinifiedBytes: single.minified,
      targetGzipBytes,
      eagerMinifiedBytesBy: byOrigin(fromSources.inputs),
      clientModuleEagerGzipBytes: fromClientModule.gzip,
    };
    if (name === 'clientAndRecorder') {
      heaviestEagerInputs = Object.entries(fromSources.inputs)
        .map(([input, bytes]) => ({ input, bytes }))
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 12);
    }
  }
  const builderOnly = await bundle(`import { usdToMicroDollars } from ${JSON.stringify(index)};\nconsole.log(usdToMicroDollars(1));`, false);
  return { scenarios, builderOnlyGzipBytes: builderOnly.gzip, heaviestEagerInputs };
}

/** Lines for `npm run bench`: each scenario against its target, and what its eager part is made of. */
export function describeBundle(result: BundleResult): string[] {
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const lines: string[] = [];
  for (const [name, scenario] of Object.entries(result.scenarios)) {
    const target = scenario.targetGzipBytes === undefined ? 'no target' : `target ≤ ${kB(scenario.targetGzipBytes)}: ${scenario.eagerGzipBytes <= scenario.targetGzipBytes ? 'met' : 'NOT met'}`;
    const parts = Object.entries(scenario.eagerMinifiedBytesBy)
      .slice(0, 8)
      .map(([group, bytes]) => `${group} ${kB(bytes)}`)
      .join(', ');
    lines.push(
      `bundle ${name}: eager ${kB(scenario.eagerGzipBytes)} min+gz (${kB(scenario.eagerMinifiedBytes)} min; ${target}); ` +
        `as one file ${kB(scenario.singleFileGzipBytes)} min+gz (${kB(scenario.singleFileMinifiedBytes)} min); ` +
        `eager without the root's other exports (NebulyClient from src/client.ts) ${kB(scenario.clientModuleEagerGzipBytes)}; ` +
        `eager, minified, by origin: ${parts}`,
    );
  }
  lines.push(`bundle of usdToMicroDollars alone: ${kB(result.builderOnlyGzipBytes)} min+gz`);
  return lines;
}
