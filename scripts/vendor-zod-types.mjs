// zod is bundled into dist/ (tsup.config.ts `noExternal`) and is not a dependency of the
// package: installed beside it, it would ship twice. The published declarations still
// name zod's types (the schemas of `nebuly-client/schemas`, the endpoints'), so after
// `tsup` this copies the declaration files they reach (`zod/mini`, `zod/v4/core` and
// what those import, relative paths only) into dist/vendor/zod/, with zod's licence, and
// points the declarations at the copy: the types resolve with no zod installed.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The zod subpaths the declarations import, and the file each resolves to (without extension). */
export const ZOD_TYPE_ENTRIES = { 'zod/mini': 'mini/index', 'zod/v4/core': 'v4/core/index' };

/** Where the copy goes, under dist/. */
export const VENDOR_DIR = 'vendor/zod';

const IMPORT = /((?:from|import)\s*\(?\s*)(["'])([^"']+)\2/g;

/** The declaration files of zod (`ext` `.d.ts` or `.d.cts`) the entries reach, relative to zod's folder. */
function closure(zodDir, ext) {
  const seen = new Set();
  const queue = Object.values(ZOD_TYPE_ENTRIES).map((file) => file + ext);
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, , , specifier] of readFileSync(join(zodDir, file), 'utf8').matchAll(IMPORT)) {
      if (!specifier.startsWith('.')) continue;
      queue.push(normalize(join(dirname(file), specifier)).replace(/\.c?js$/, '') + ext);
    }
  }
  return [...seen];
}

/**
 * The declaration text with its imports of zod pointed at the copy in dist/vendor/zod.
 *
 * @example
 * ```js
 * pointAtVendor("import * as z from 'zod/mini';", 'dist/index.d.ts', 'dist');
 * // "import * as z from './vendor/zod/mini/index.js';"
 * ```
 */
export function pointAtVendor(text, file, distDir) {
  const cjs = file.endsWith('.d.cts');
  return text.replace(IMPORT, (whole, head, quote, specifier) => {
    const target = ZOD_TYPE_ENTRIES[specifier];
    if (target === undefined) return whole;
    let path = relative(dirname(file), join(distDir, VENDOR_DIR, `${target}.${cjs ? 'cjs' : 'js'}`)).replaceAll('\\', '/');
    if (!path.startsWith('.')) path = `./${path}`;
    return `${head}${quote}${path}${quote}`;
  });
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const distDir = process.argv[2] ?? 'dist';
  const zodDir = dirname(new URL(import.meta.resolve('zod/package.json')).pathname);
  let copied = 0;
  for (const ext of ['.d.ts', '.d.cts']) {
    for (const file of closure(zodDir, ext)) {
      mkdirSync(dirname(join(distDir, VENDOR_DIR, file)), { recursive: true });
      copyFileSync(join(zodDir, file), join(distDir, VENDOR_DIR, file));
      copied += 1;
    }
  }
  copyFileSync(join(zodDir, 'LICENSE'), join(distDir, VENDOR_DIR, 'LICENSE'));
  const version = JSON.parse(readFileSync(join(zodDir, 'package.json'), 'utf8')).version;
  // zod's package.json says `"type": "module"`; so does ours, which the copy now sits under.
  writeFileSync(join(distDir, VENDOR_DIR, 'README.md'), `The declaration files of zod ${version} (MIT, LICENSE here), which dist/ bundles: copied by scripts/vendor-zod-types.mjs.\n`);
  let pointed = 0;
  for (const name of readdirSync(distDir)) {
    if (!name.endsWith('.d.ts') && !name.endsWith('.d.cts')) continue;
    const file = join(distDir, name);
    const text = readFileSync(file, 'utf8');
    const changed = pointAtVendor(text, file, distDir);
    if (changed !== text) {
      writeFileSync(file, changed);
      pointed += 1;
    }
  }
  console.log(`vendor-zod-types: ${copied} declaration files of zod ${version} in ${join(distDir, VENDOR_DIR)}; ${pointed} declaration file(s) point at them`);
}
