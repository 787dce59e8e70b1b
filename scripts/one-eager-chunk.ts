// An esbuild plugin for the ESM build bundlers read (dist/index.js, dist/lib/): each of
// the SDK's lazy modules (each `import('./x.js')` of src/: the recorder's stages, the
// HTTP engine, the typed call, the payload issues, the masks) also re-exports
// `NebulyClient`, under a name no one reads.
//
// Why: a user's esbuild, splitting their bundle, cannot know that a module loaded with
// `import()` always loads after the entry that imports it. Every module the entry and a
// lazy module both use becomes a chunk of its own, one per set of lazy modules sharing
// it: the part that loads first for the recorder alone was the entry and 6 such chunks,
// each gzipped on its own, 16.8 kB against 15.4 kB as one text (bench/bundle.ts). Each
// lazy module exporting the client makes all that `new NebulyClient` needs shared by
// the same set, the entry and every lazy module: one chunk. What the lazy modules load
// is unchanged, and nothing is evaluated twice (docs/decisions/0004-pay-for-what-you-use.md).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { lazyModules } from './one-lazy-file.js';

/** The name each lazy module exports the client under; read by no one. */
export const SHARED_CLIENT_EXPORT = '__nebulyClientShared';

/**
 * `source` with the re-export of the client from the module at `client` appended.
 *
 * @example
 * ```ts
 * withSharedClient('export const a = 1;\n', '/repo/src/client.ts');
 * // 'export const a = 1;\n\nexport { NebulyClient as __nebulyClientShared } from "/repo/src/client.ts";\n'
 * ```
 */
export function withSharedClient(source: string, client: string): string {
  return `${source}\nexport { NebulyClient as ${SHARED_CLIENT_EXPORT} } from ${JSON.stringify(client)};\n`;
}

/**
 * The plugin, for the build of the modules in `srcDir` whose client class is in `client`.
 *
 * @example
 * ```ts
 * defineConfig({ entry, format: ['esm'], splitting: true, esbuildPlugins: [oneEagerChunk('src', 'src/client.ts')] });
 * ```
 */
export function oneEagerChunk(srcDir: string, client: string): Plugin {
  const lazy = new Set(lazyModules(resolve(srcDir)));
  const clientPath = resolve(client);
  return {
    name: 'nebuly-one-eager-chunk',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async ({ path }) => {
        if (!lazy.has(path)) return undefined;
        return { contents: withSharedClient(await readFile(path, 'utf8'), clientPath), loader: 'ts' };
      });
    },
  };
}
