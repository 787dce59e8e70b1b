import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distName, PACKAGE_ENTRIES } from '../../package-entries.js';
import configs from '../../tsup.config.js';

// The integration entries built as published, in a directory with no node_modules above
// it: a project where the SDK is installed and the framework is not.
const OUT = mkdtempSync(join(tmpdir(), 'nebuly-no-framework-'));
const integrations = PACKAGE_ENTRIES.filter((entry) => entry.framework !== undefined);

beforeAll(async () => {
  const entry = Object.fromEntries(integrations.map((item) => [distName(item), item.source]));
  const library = (configs as Options[]).filter((config) => 'index' in (config.entry as Record<string, string>) && config.outDir !== undefined);
  const commonjs = (configs as Options[]).find((config) => config.format?.includes('cjs'))!;
  // CommonJS (`require`) and the ESM that Node resolves (`dist/node`).
  await Promise.all(
    [commonjs, ...library].map((config) =>
      build({ ...config, entry, outDir: join(OUT, config.format?.includes('cjs') ? 'cjs' : 'esm'), dts: false, clean: false, silent: true, config: false }),
    ),
  );
  writeFileSync(join(OUT, 'esm', 'package.json'), '{ "type": "module" }');
}, 60_000);

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** What a Node process prints and whether it failed, loading `file` (a `.cjs` with require, else with import). */
async function load(file: string): Promise<{ failed: boolean; stderr: string }> {
  const code = file.endsWith('.cjs') ? `require(${JSON.stringify(file)})` : `await import(${JSON.stringify(file)})`;
  const type = file.endsWith('.cjs') ? 'commonjs' : 'module';
  return promisify(execFile)(process.execPath, [`--input-type=${type}`, '-e', code], { cwd: OUT }).then(
    ({ stderr }) => ({ failed: false, stderr }),
    (error: { stderr: string }) => ({ failed: true, stderr: error.stderr }),
  );
}

/** The entries that load their framework when imported, and that framework. */
const LOADED_AT_IMPORT = [
  ['langchain', '@langchain/core'],
  ['msw', 'msw'],
];

describe('an integration entry whose framework is not installed', () => {
  it('runs in a project where no framework resolves', () => {
    for (const { framework } of integrations) expect(() => createRequire(join(OUT, 'x.js')).resolve(framework!)).toThrow();
  });

  it.each(LOADED_AT_IMPORT)('nebuly-client/%s, required: names the package to install', async (name, framework) => {
    const { failed, stderr } = await load(join(OUT, 'cjs', `${name}.cjs`));
    expect(failed).toBe(true);
    expect(stderr).toContain(`Error: nebuly-client/${name} needs ${framework}, an optional peer dependency that is not installed: npm install ${framework}`);
    expect(stderr).toContain("code: 'MODULE_NOT_FOUND'");
  });

  it.each(LOADED_AT_IMPORT)('nebuly-client/%s, imported: names the package to install, with Node’s error as its cause', async (name, framework) => {
    const { failed, stderr } = await load(join(OUT, 'esm', `${name}.js`));
    expect(failed).toBe(true);
    expect(stderr).toContain(`Error: nebuly-client/${name} needs ${framework}, an optional peer dependency that is not installed: npm install ${framework}`);
    expect(stderr).toContain("code: 'ERR_MODULE_NOT_FOUND'");
    expect(stderr).toContain(`Cannot find package '${framework}'`);
  });

  it.each(['openai', 'anthropic', 'google-genai', 'bedrock', 'ai-sdk'])('nebuly-client/%s loads without it: it imports its framework as types only', async (name) => {
    expect(await load(join(OUT, 'cjs', `${name}.cjs`))).toEqual({ failed: false, stderr: '' });
    expect(await load(join(OUT, 'esm', `${name}.js`))).toEqual({ failed: false, stderr: '' });
  });
});
