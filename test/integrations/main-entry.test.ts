import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every source file `entry` reaches through static and dynamic imports, and the packages named. */
function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, specifier = ''] of code.matchAll(/(?:from\s*|import\s*\(?\s*)['"]([^'"]+)['"]/g)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files, packages };
}

it('the main entry reaches no integration and no framework (they are separate entries)', () => {
  const { files, packages } = importGraph(join(SRC, 'index.ts'));
  expect(files.size).toBeGreaterThan(10); // the walk did follow imports
  expect([...files].filter((file) => file.includes(`${join(SRC, 'integrations')}`))).toEqual([]);
  expect([...packages].filter((name) => /^(openai|@anthropic-ai\/|ai$|ai\/|@langchain\/)/.test(name))).toEqual([]);
});

it('the integration entries name their provider SDKs as types only', () => {
  for (const entry of ['openai.ts', 'anthropic.ts']) {
    const { files } = importGraph(join(SRC, 'integrations', entry));
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toMatch(/^import (?!type)[^;]*from '(openai|@anthropic-ai\/sdk)/m);
    }
  }
});
