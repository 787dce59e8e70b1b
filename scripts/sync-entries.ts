// Writes the lists of the package's entries that live in JSON files (package.json,
// tsconfig.json, typedoc.json) from the one table, package-entries.ts: `npm run entries`.
// test/package/entries.test.ts fails while any of them differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageExports, packageTypesVersions, tsconfigPaths, typedocEntryPoints } from '../package-entries.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

type Json = Record<string, unknown>;

/** Each JSON file with its entry lists, and how to set them from the table. */
const FILES: { path: string; update: (json: Json) => void }[] = [
  {
    path: 'package.json',
    update(json) {
      json.typesVersions = packageTypesVersions();
      json.exports = packageExports();
    },
  },
  {
    path: 'tsconfig.json',
    update(json) {
      (json.compilerOptions as Json).paths = tsconfigPaths();
    },
  },
  {
    path: 'typedoc.json',
    update(json) {
      json.entryPoints = typedocEntryPoints();
    },
  },
];

/**
 * Each file as it is and as the table makes it (two-space JSON, as npm writes
 * package.json; keys keep their place).
 *
 * @example
 * ```ts
 * for (const { path, current, expected } of entryFiles()) if (current !== expected) console.log(path);
 * ```
 */
export function entryFiles(): { path: string; current: string; expected: string }[] {
  return FILES.map(({ path, update }) => {
    const current = readFileSync(`${ROOT}${path}`, 'utf8');
    const json = JSON.parse(current) as Json;
    update(json);
    return { path, current, expected: `${JSON.stringify(json, null, 2)}\n` };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { path, current, expected } of entryFiles()) {
    if (current === expected) continue;
    writeFileSync(`${ROOT}${path}`, expected);
    console.log(`updated ${path}`);
  }
}
