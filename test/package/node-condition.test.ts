import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as bundle, type Platform } from 'esbuild';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsupEntries } from '../../package-entries.js';
import configs from '../../tsup.config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repo's node_modules, so that the integrations' peer packages resolve as they do for users.
const OUT = mkdtempSync(join(ROOT, 'node_modules', '.node-condition-'));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
};

/** Every subpath users import, as `exports` names them. */
const SUBPATHS = Object.keys(manifest.exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => `${manifest.name}${subpath.slice(1)}`);

/**
 * The most modules Node loads to import the main entry (the lazy modules and ky load at
 * their first use): the entry, and what it shares with the lazy file, with the
 * integrations as well, and with the Redis store as well (the errors), and esbuild's
 * helpers that defer zod and the schemas to their first use (`__esm`, zod-checks-now.node.ts).
 */
const MAX_MAIN_ENTRY_MODULES = 5;

beforeAll(async () => {
  // Both ESM builds (Node's in two parts), as published, less the types: the one Node
  // resolves and the one bundlers do; not the bins.
  const entries = Object.keys(tsupEntries());
  const esm = (configs as Options[]).filter(
    (config) => config.format?.includes('esm') && Object.keys(config.entry as Record<string, string>).some((name) => entries.includes(name)),
  );
  await Promise.all(
    esm.map((config) =>
      build({ ...config, outDir: join(OUT, config.outDir ?? 'dist'), dts: false, sourcemap: false, clean: false, silent: true, config: false }),
    ),
  );
  // The package's own name and exports, so that `nebuly-client/…` resolves inside OUT as it does for users.
  writeFileSync(join(OUT, 'package.json'), JSON.stringify({ name: manifest.name, type: 'module', sideEffects: false, exports: manifest.exports }));
}, 60_000);

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** Runs an ES module in a fresh Node process inside the package, returns what it printed. */
function node(code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: OUT, encoding: 'utf8' });
}

/** The files a module imports statically, itself included: what Node loads to import it. */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;(]*?["'](\.[^"']+)["']/gm)) {
      visit(join(dirname(file), specifier!));
    }
  };
  visit(entry);
  return [...seen];
}

/** The files among `files` that define the recorder's `Turn` class. */
const turnClasses = (files: string[]) => files.filter((file) => /\b(?:class Turn|Turn = class)\b/.test(readFileSync(file, 'utf8')));

describe('the `node` condition: what Node imports', () => {
  const resolved = () =>
    JSON.parse(node(`console.log(JSON.stringify(${JSON.stringify(SUBPATHS)}.map((s) => import.meta.resolve(s))))`)) as string[];

  it('resolves every entry to the Node build, and the main entry to a handful of modules', () => {
    const files = resolved().map((url) => relative(OUT, fileURLToPath(url)));
    expect(files).toEqual(SUBPATHS.map(() => expect.stringMatching(/^dist\/node\/[^/]+\.js$/) as unknown));
    const main = staticGraph(join(OUT, files[0]!));
    expect(main.length).toBeLessThanOrEqual(MAX_MAIN_ENTRY_MODULES);
  });

  it('loads the lazy modules, all in one file, at their first use, not at import', () => {
    const lazyFiles = readdirSync(join(OUT, 'dist/node')).filter((file) => file.startsWith('nebuly-lazy-'));
    expect(lazyFiles).toHaveLength(1);
    const main = staticGraph(join(OUT, relative(OUT, fileURLToPath(resolved()[0]!))));
    expect(main.map((file) => relative(join(OUT, 'dist/node'), file))).not.toContain(lazyFiles[0]);
    const output = node(`
      import { createServer } from 'node:http';
      const server = createServer((request, response) => request.resume().on('end', () => response.end('{"message":"ok"}'))).listen(0);
      await new Promise((resolve) => server.once('listening', resolve));
      const { NebulyClient } = await import('${manifest.name}');
      const nebuly = new NebulyClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:' + server.address().port, recorder: { sendOnExit: false } });
      const conversation = nebuly.startConversation({ end_user: 'u' });
      conversation.interaction({ input: 'i' }).end({ output: 'o' });
      console.log((await conversation.end()).status, JSON.stringify(await nebuly.eligibleUsers.delete({ users: ['u'] })));
      await nebuly.shutdown();
      server.close();`);
    expect(output.trim()).toBe('delivered {"message":"ok"}');
  });

  it('evaluates zod and the schemas at the first builder used, not at import', () => {
    // zod's core sets this global when it is evaluated.
    const output = node(`
      const root = await import('${manifest.name}');
      new root.NebulyClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', recorder: { sendOnExit: false } });
      const atImport = globalThis.__zod_globalConfig !== undefined;
      const step = root.llmStep({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello' });
      const atBuilder = globalThis.__zod_globalConfig !== undefined;
      let issues;
      try { root.feedbackAction({ slug: 'like' }); } catch (error) { issues = error instanceof root.ValidationError && error.issues.length; }
      const { z } = await import('zod/mini').then((zod) => ({ z: zod }));
      const schemas = await import('${manifest.name}/schemas');
      console.log(JSON.stringify([atImport, atBuilder, step.model, issues, z.safeParse(schemas.llmStepSchema, {}).success]));`);
    expect(JSON.parse(output)).toEqual([false, true, 'm', 1, false]);
  });

  it('gives every entry one copy of the recorder', () => {
    const files = resolved().map((url) => fileURLToPath(url));
    expect(turnClasses([...new Set(files.flatMap(staticGraph))])).toHaveLength(1);
    // The integrations check `instanceof Turn` on what the main entry made: they would throw.
    const output = node(`
      const [main, openai, anthropic, aiSdk, langchain] = await Promise.all(
        ['', '/openai', '/anthropic', '/ai-sdk', '/langchain'].map((subpath) => import('${manifest.name}' + subpath)));
      const nebuly = new main.NebulyClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', recorder: { sendOnExit: false }, onError() {} });
      const turn = nebuly.startConversation({ end_user: 'u' }).interaction({ input: 'i' });
      openai.observeOpenAI({}, { turn });
      anthropic.observeAnthropic({}, { turn });
      aiSdk.nebulyTelemetry({ conversation: nebuly.startConversation({ end_user: 'u' }) });
      new langchain.NebulyCallbackHandler({ turn });
      console.log('shared');`);
    expect(output.trim()).toBe('shared');
  });
});

describe('what a bundler takes', () => {
  /** The package's files a bundle of every entry takes, for `platform`. */
  async function bundledFiles(platform: Platform) {
    const result = await bundle({
      stdin: {
        contents: SUBPATHS.map((subpath, index) => `export * as e${index} from '${subpath}';`).join('\n'),
        resolveDir: OUT,
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      platform,
      write: false,
      metafile: true,
      external: ['msw', 'node:*'],
      logLevel: 'silent',
    });
    return Object.keys(result.metafile.inputs)
      .map((input) => join(ROOT, input))
      .filter((file) => file.startsWith(`${OUT}/dist/`));
  }

  it('for a browser or worker: the per-module build of every entry, one recorder', async () => {
    const files = await bundledFiles('browser');
    expect(files.filter((file) => file.startsWith(`${OUT}/dist/node/`))).toEqual([]);
    expect(turnClasses(files)).toHaveLength(1);
  });

  it('for Node: the Node build of every entry, one recorder', async () => {
    const files = await bundledFiles('node');
    expect(files.filter((file) => !file.startsWith(`${OUT}/dist/node/`))).toEqual([]);
    expect(turnClasses(files)).toHaveLength(1);
  });
});
