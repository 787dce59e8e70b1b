// An esbuild plugin for Node's ESM build (dist/node): a module `x.ts` of src/ that has a
// `x.node.ts` beside it is replaced by it there. The one variant so far,
// src/builders/zod-checks-now.node.ts, makes zod and the schemas at their first use
// instead of at import (docs/decisions/0004-pay-for-what-you-use.md).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * The plugin.
 *
 * @example
 * ```ts
 * defineConfig({ entry, format: ['esm'], esbuildPlugins: [nodeVariants()] });
 * ```
 */
export function nodeVariants(): Plugin {
  return {
    name: 'nebuly-node-variants',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, resolveDir, importer }) => {
        if (!/[\\/]src[\\/]/.test(importer)) return undefined;
        const variant = resolve(resolveDir, path.replace(/\.js$/, '.node.ts'));
        return existsSync(variant) ? { path: variant } : undefined;
      });
    },
  };
}
