// A tsup plugin for the ESM builds (dist/index.js and dist/lib/, which bundlers read, and
// dist/node): each entry file loses its bare `import './chunks/chunk-X.js';` lines.
// esbuild writes into every entry a bare import of each chunk its modules reach, to fix
// the order of evaluation; a user's esbuild, splitting their bundle, then counts every
// chunk so named as loaded by the entry, used or not, and puts what the SDK's lazy modules
// share with it (zod and the schemas) into
// the part that loads first: 38 kB instead of 25 kB min+gz for the recorder alone
// (bench/bundle.ts, docs/decisions/0004-pay-for-what-you-use.md). Each chunk imports by
// name what it uses, so what a user's code uses still loads first, in dependency order;
// and no module of the package needs evaluating for its side effects alone (`sideEffects:
// false`). On Node, a chunk so named that nothing of the entry uses is one more file
// loaded at import (esbuild's namespace helper, which only the lazy modules need:
// scripts/one-lazy-file.ts).
import type { Options } from 'tsup';

/** A line that imports a chunk for its evaluation only: `lib/chunks/chunk-X.js`, or dist/node's `./chunk-X.js`. */
const BARE_CHUNK_IMPORT = /^import ['"](?:(?:\.{1,2}\/)+(?:lib\/)?chunks\/|\.\/chunk-)[^'"]+\.js['"];?\n/gm;

/**
 * The source of an entry file without its bare imports of chunks.
 *
 * @example
 * ```ts
 * withoutBareChunkImports("export { a } from './chunks/chunk-A.js';\nimport './chunks/chunk-B.js';\n");
 * // "export { a } from './chunks/chunk-A.js';\n"
 * withoutBareChunkImports("import './chunk-B.js';\nexport { a } from './chunk-A.js';\n");
 * // "export { a } from './chunk-A.js';\n"
 * ```
 */
export function withoutBareChunkImports(code: string): string {
  return code.replace(BARE_CHUNK_IMPORT, '');
}

/**
 * The plugin, for an ESM build with `splitting`.
 *
 * @example
 * ```ts
 * defineConfig({ entry, format: ['esm'], splitting: true, plugins: [namedImportsOnly()] });
 * ```
 */
export function namedImportsOnly(): NonNullable<Options['plugins']>[number] {
  return {
    name: 'nebuly-named-imports-only',
    renderChunk(code, { entryPoint }) {
      if (entryPoint === undefined) return undefined;
      return { code: withoutBareChunkImports(code) };
    },
  };
}
