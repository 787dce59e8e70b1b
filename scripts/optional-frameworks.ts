// An esbuild plugin for the CommonJS build: an integration entry whose framework (an
// optional peer dependency) is not installed fails, when required, with an error that
// names the package to install, instead of Node's bare "Cannot find module".
import type { Plugin } from 'esbuild';
import { importPath, PACKAGE_ENTRIES } from '../package-entries.js';

const NAMESPACE = 'nebuly-optional-framework';

/** Each framework that an entry loads at run time, and that entry's import path. */
const FRAMEWORKS = PACKAGE_ENTRIES.flatMap((entry) => (entry.framework === undefined ? [] : [[entry.framework, importPath(entry)] as const]));

/** The framework a module specifier belongs to: `@langchain/core` for `@langchain/core/callbacks/base`. */
function frameworkOf(specifier: string): readonly [string, string] | undefined {
  return FRAMEWORKS.find(([name]) => specifier === name || specifier.startsWith(`${name}/`));
}

/**
 * The module that stands for `specifier` in the build: it requires it, and when the
 * framework itself is missing (not a module inside it) throws an error naming what to
 * install, with Node's as its cause and its code kept.
 */
function guardedRequire(specifier: string, framework: string, entry: string): string {
  const message = `${entry} needs ${framework}, an optional peer dependency that is not installed: npm install ${framework}`;
  return `try {
  module.exports = require(${JSON.stringify(specifier)});
} catch (cause) {
  if (!cause || cause.code !== 'MODULE_NOT_FOUND' || !String(cause.message).includes(${JSON.stringify(`'${specifier}'`)})) throw cause;
  const error = new Error(${JSON.stringify(message)}, { cause });
  error.code = 'MODULE_NOT_FOUND';
  throw error;
}
`;
}

/** Every specifier of an integration framework: `msw`, `@langchain/core/callbacks/base`. */
export const FRAMEWORK_SPECIFIER = new RegExp(
  `^(?:${FRAMEWORKS.map(([name]) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(?:/.*)?$`,
);

/**
 * The plugin: each import of an integration framework from the SDK's source goes through
 * {@link guardedRequire}. Type-only imports are gone before esbuild resolves, so only the
 * frameworks an entry really loads (`@langchain/core`, `msw`) are guarded.
 *
 * tsup marks peer dependencies external before any plugin sees them: list
 * {@link FRAMEWORK_SPECIFIER} in `noExternal` too, so that they reach this plugin.
 *
 * @example
 * ```ts
 * defineConfig({ format: ['cjs'], noExternal: [FRAMEWORK_SPECIFIER], esbuildPlugins: [optionalFrameworks()] });
 * ```
 */
export function optionalFrameworks(): Plugin {
  return {
    name: 'optional-frameworks',
    setup(build) {
      build.onResolve({ filter: FRAMEWORK_SPECIFIER }, (args) => {
        // The guard's own require: left to Node.
        if (args.namespace === NAMESPACE) return { path: args.path, external: true };
        return { path: args.path, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const [framework, entry] = frameworkOf(args.path)!;
        return { contents: guardedRequire(args.path, framework, entry), loader: 'js' };
      });
    },
  };
}
