// An esbuild plugin for the CommonJS build and the entries Node's ESM build makes apart: the
// SDK's own `import('./x.js')` become static imports there. A bundler's user gains from each
// lazy module (bytes not fetched, not parsed); Node loads files from disk, where every
// extra chunk costs more at import than the code it defers, and the split points of the
// lazy modules made the main entry load 17 files instead of 8 (bench/import.ts,
// docs/decisions/0004-pay-for-what-you-use.md). Node's ESM build of the client's entries
// gathers them in one lazy file instead (scripts/one-lazy-file.ts). A package's
// `import('ky')` stays lazy: ky touches `Request` when evaluated, which makes Node load its fetch.
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** `import('./x.js')` or `import('../y/z.js')`, a relative specifier in quotes; not a type's `typeof import(…)`. */
export const LOCAL_DYNAMIC_IMPORT = /(?<!typeof )\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g;

/**
 * The source with each relative dynamic import made a static namespace import, read
 * through a resolved promise so that the code around it is unchanged.
 *
 * @example
 * ```ts
 * eagerLocalImports("const m = await import('./a.js');"); // "import * as __eager0 from './a.js';\nconst m = await Promise.resolve(__eager0);"
 * ```
 */
export function eagerLocalImports(source: string): string {
  const specifiers: string[] = [];
  const body = source.replace(LOCAL_DYNAMIC_IMPORT, (_, _quote: string, specifier: string) => {
    let index = specifiers.indexOf(specifier);
    if (index === -1) index = specifiers.push(specifier) - 1;
    return `Promise.resolve(__eager${index})`;
  });
  const imports = specifiers.map((specifier, index) => `import * as __eager${index} from ${JSON.stringify(specifier)};\n`).join('');
  return imports + body;
}

/**
 * The plugin: every `src/` module with a relative dynamic import is loaded with those
 * made static.
 *
 * @example
 * ```ts
 * defineConfig({ entry, esbuildPlugins: [eagerLocalImportsPlugin()] });
 * ```
 */
export function eagerLocalImportsPlugin(): Plugin {
  return {
    name: 'nebuly-eager-local-imports',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (!LOCAL_DYNAMIC_IMPORT.test(source)) return undefined;
        LOCAL_DYNAMIC_IMPORT.lastIndex = 0;
        return { contents: eagerLocalImports(source), loader: 'ts' };
      });
    },
  };
}
