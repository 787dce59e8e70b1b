import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as bundle } from 'esbuild';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import configs from '../../tsup.config.js';
import { bundle as eagerBundle, SCENARIOS } from '../../bench/bundle.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repo's node_modules, so that the build's `zod/mini` resolves as it does for users.
const OUT = mkdtempSync(join(ROOT, 'node_modules', '.tree-shaking-'));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { sideEffects?: unknown };

beforeAll(async () => {
  // The package's own ESM build, as published, less the types.
  const esm = (configs as Options[]).find(
    (config) => config.format?.includes('esm') && 'index' in (config.entry as Record<string, string>),
  )!;
  await build({ ...esm, format: ['esm'], outDir: OUT, dts: false, sourcemap: false, clean: false, silent: true, config: false });
  writeFileSync(join(OUT, 'package.json'), JSON.stringify({ type: 'module', sideEffects: manifest.sideEffects }));
}, 60_000);

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

// zod and ky are bundled into the build's own chunks, so a user's bundle names no file of
// theirs: their code is recognised instead, by property names no minifier renames.
const ZOD_MARK = /\b_zod\b/;
const KY_MARK = /\bbeforeRetry\b/;

/** A user's bundle of `import { names } from 'nebuly-client'`: its text, and the files it took code from. */
async function userBundle(names: string) {
  const result = await bundle({
    stdin: { contents: `import { ${names} } from './index.js'; console.log(${names});`, resolveDir: OUT, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    outfile: 'user.js',
    logLevel: 'silent',
  });
  const inputs = Object.values(result.metafile.outputs)[0]!.inputs;
  return { text: result.outputFiles[0]!.text, inputs: Object.keys(inputs).filter((input) => inputs[input]!.bytesInOutput > 0) };
}

describe('tree-shaking of the package root (ESM build)', () => {
  it('is declared free of side effects', () => {
    expect(manifest.sideEffects).toBe(false);
  });

  it.each(['usdToMicroDollars', 'hashEndUser', 'ValidationError'])(
    'leaves the client, ky and zod out of a bundle that imports only %s',
    async (name) => {
      const { text, inputs } = await userBundle(name);
      expect(inputs.filter((input) => /node_modules\/(ky|zod)\//.test(input))).toEqual([]);
      expect(text).not.toMatch(ZOD_MARK);
      expect(text).not.toMatch(KY_MARK);
      expect(text).not.toContain('class NebulyClient');
      expect(text).not.toContain('/event-ingestion/api');
      expect(text).not.toContain('no API key');
    },
  );

  it('still bundles what the client needs when the client is imported', async () => {
    const { text } = await userBundle('NebulyClient');
    expect(text).toMatch(ZOD_MARK);
    expect(text).toMatch(KY_MARK);
    expect(text).toContain('/event-ingestion/api');
  });

  it('names no node: module in a browser or worker bundle of the client: Node\'s transport is taken at run time', async () => {
    const { text } = await userBundle('NebulyClient');
    expect(text).not.toMatch(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']node:/);
    expect(text).toContain('getBuiltinModule');
  });

  // esbuild, splitting a user's bundle, puts in the part that loads first every module the
  // entry reaches, used or not, that the SDK's lazy modules share: through a re-export from
  // a module loaded with `import()` (`MASK_FAILED` was exported from the zod-checked
  // `apply-mask.ts`), or a bare import of a chunk (scripts/named-imports-only.ts).
  it.each(['recorderOnly', 'clientAndRecorder'] as const)(
    'loads no zod before the first use that needs it, with code splitting (%s, the bundle bench\'s user module)',
    async (scenario) => {
      const { text } = await eagerBundle(`import { NebulyClient } from ${JSON.stringify(join(OUT, 'index.js'))};\n${SCENARIOS[scenario].code}`, true);
      expect(text).toContain('no API key'); // the client is there: its check of the key runs at construction
      // A boolean: the failure would otherwise print the whole bundle.
      expect(ZOD_MARK.test(text), 'zod in the part of the bundle that loads first').toBe(false);
    },
  );

  // esbuild makes each module that the entry and some lazy modules share a chunk of its
  // own; every lazy module re-exporting the client makes all that `new NebulyClient`
  // needs shared alike (scripts/one-eager-chunk.ts).
  it('keeps what the client needs in one chunk of a split bundle, that its lazy modules import too', async () => {
    const dir = mkdtempSync(join(ROOT, 'node_modules', '.split-'));
    try {
      writeFileSync(join(dir, 'user.js'), `import { NebulyClient } from ${JSON.stringify(join(OUT, 'index.js'))};\n${SCENARIOS.recorderOnly.code}`);
      const result = await bundle({
        entryPoints: [join(dir, 'user.js')],
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'browser',
        outdir: join(dir, 'out'),
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      const outputs = result.metafile.outputs;
      // The user's module: each lazy chunk names an entry point too (the module `import()` loads).
      const entry = Object.keys(outputs).find((output) => outputs[output]!.entryPoint?.endsWith('user.js') === true)!;
      const eager = outputs[entry]!.imports.filter(({ kind }) => kind === 'import-statement').map(({ path }) => path);
      const text = (output: string) => result.outputFiles!.find((file) => file.path === join(ROOT, output))!.text;
      const holding = (mark: string) => eager.filter((output) => text(output).includes(mark));
      // The client's check of the key and the recorder's turns: one chunk.
      expect(holding('no API key')).toHaveLength(1);
      expect(holding('no API key')).toEqual(holding('var Turn = class'));
      // Besides it, at most the mask's errors (the root exports them; only the masks use them).
      expect(eager.length).toBeLessThanOrEqual(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
