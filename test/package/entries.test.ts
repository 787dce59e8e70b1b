import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { describe, expect, it } from 'vitest';
import { distName, importPath, PACKAGE_ENTRIES, PACKAGE_NAME } from '../../package-entries.js';
import { entryFiles } from '../../scripts/sync-entries.js';
import configs from '../../tsup.config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  name: string;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe('the table of entries (package-entries.ts)', () => {
  it.each(entryFiles())('is what $path lists (run `npm run entries` after changing the table)', ({ current, expected }) => {
    expect(current).toBe(expected);
  });

  it('is what every build of the library bundles', () => {
    // Each build is one output folder and format; Node's ESM build (dist/node) is made in
    // two parts, its entries built apart in the second (package-entries.ts, `apart`).
    const names = new Set(PACKAGE_ENTRIES.map(distName));
    const builds = new Map<string, Record<string, string>>();
    for (const config of configs as Options[]) {
      const entry = config.entry as Record<string, string>;
      if (!Object.keys(entry).some((name) => names.has(name))) continue; // the bins
      const build = `${String(config.format)} ${config.outDir ?? 'dist'}`;
      for (const name of Object.keys(entry)) expect(builds.get(build)?.[name], `${name} twice in ${build}`).toBeUndefined();
      builds.set(build, { ...builds.get(build), ...entry });
    }
    expect([...builds.keys()]).toEqual(['esm dist', 'esm dist/node', 'cjs dist']);
    for (const entries of builds.values()) {
      for (const entry of PACKAGE_ENTRIES) expect(entries[distName(entry)]).toBe(entry.source);
    }
  });

  it('names the package as package.json does, and each integration an optional peer dependency', () => {
    expect(PACKAGE_NAME).toBe(manifest.name);
    for (const { framework } of PACKAGE_ENTRIES.filter((entry) => entry.framework !== undefined)) {
      expect(manifest.peerDependencies).toHaveProperty([framework!]);
      expect(manifest.peerDependenciesMeta[framework!]?.optional).toBe(true);
    }
  });

  it('resolves each import path to its source in the tests, as users import it', async () => {
    for (const entry of PACKAGE_ENTRIES) {
      // Through vitest's aliases, made from the table: the same module as the source file.
      const byName: unknown = await import(/* @vite-ignore */ importPath(entry));
      const bySource: unknown = await import(/* @vite-ignore */ `${ROOT}${entry.source}`);
      expect(byName).toBe(bySource);
    }
  });
});
