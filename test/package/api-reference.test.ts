import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { describe, expect, it } from 'vitest';
import configs from '../../tsup.config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const typedoc = JSON.parse(read('typedoc.json')) as {
  entryPoints: string[];
  projectDocuments: string[];
  headings?: { readme?: boolean };
  navigation?: { includeFolders?: boolean };
};
const manifest = JSON.parse(read('package.json')) as { name: string; exports: Record<string, unknown> };

/** Each import path of the package and the source file its build comes from. */
function importPaths(): [string, string][] {
  const entries = (configs as Options[]).find((config) => config.format?.includes('cjs'))!.entry as Record<string, string>;
  return Object.entries(manifest.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, target]) => {
      const file = (target as { import: { default: string } }).import.default; // ./dist/msw.js
      const name = /^\.\/dist\/(.+)\.js$/.exec(file)![1]!;
      return [subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, entries[name]!];
    });
}

describe('the API reference (typedoc.json)', () => {
  it.each(importPaths())('documents %s as a module of that name', (importPath, source) => {
    expect(typedoc.entryPoints).toContain(source);
    expect(read(source)).toContain(`@module ${importPath}\n`);
  });

  it('renders every guide as a page with its own title', () => {
    const guides = readdirSync(`${ROOT}docs`).filter((file) => file.endsWith('.md'));
    for (const guide of guides) {
      expect(typedoc.projectDocuments).toContain(`docs/${guide}`);
      expect(read(`docs/${guide}`)).toMatch(/^---\ntitle: \S.*\n---\n/);
    }
  });

  it('shows one title on its front page and lists the modules flat, by import path', () => {
    // The README has its own title; typedoc's would repeat it above.
    expect(typedoc.headings?.readme).toBe(false);
    expect(typedoc.navigation?.includeFolders).toBe(false);
  });
});
