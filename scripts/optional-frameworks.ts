// An esbuild plugin for the builds Node loads (CommonJS, and the ESM of `dist/node`): an
// integration entry whose framework (an optional peer dependency) is not installed fails,
// when required or imported, with an error that names the package to install, instead of
// Node's bare "Cannot find module" / "Cannot find package".
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

/**
 * The ES module that stands for `specifier`: Node links a static import before any code
 * runs, so a missing package could never be explained; this one imports it dynamically
 * (top-level await: the entry waits for it, as for a static import) and explains a
 * missing framework the same way as {@link guardedRequire}, with Node's code kept. Its
 * exports are `names`, the framework's own, read when the SDK is built.
 */
function guardedImport(specifier: string, framework: string, entry: string, names: string[]): string {
  const message = `${entry} needs ${framework}, an optional peer dependency that is not installed: npm install ${framework}`;
  const named = names.filter((name) => name !== 'default');
  return `let framework;
try {
  framework = await import(${JSON.stringify(specifier)});
} catch (cause) {
  if (!cause || cause.code !== 'ERR_MODULE_NOT_FOUND' || !String(cause.message).includes(${JSON.stringify(`'${framework}'`)})) throw cause;
  const error = new Error(${JSON.stringify(message)}, { cause });
  error.code = 'ERR_MODULE_NOT_FOUND';
  throw error;
}
export const { ${named.join(', ')} } = framework;
${names.includes('default') ? 'export default framework.default;\n' : ''}`;
}

/** Every specifier of an integration framework: `msw`, `@langchain/core/callbacks/base`. */
export const FRAMEWORK_SPECIFIER = new RegExp(
  `^(?:${FRAMEWORKS.map(([name]) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(?:/.*)?$`,
);

/**
 * The plugin: each import of an integration framework from the SDK's source goes through
 * {@link guardedRequire} (`format: 'cjs'`) or {@link guardedImport} (`'esm'`). Type-only
 * imports are gone before esbuild resolves, so only the frameworks an entry really loads
 * (`@langchain/core`, `msw`) are guarded.
 *
 * tsup marks peer dependencies external before any plugin sees them: list
 * {@link FRAMEWORK_SPECIFIER} in `noExternal` too, so that they reach this plugin.
 *
 * @example
 * ```ts
 * defineConfig({ format: ['cjs'], noExternal: [FRAMEWORK_SPECIFIER], esbuildPlugins: [optionalFrameworks('cjs')] });
 * ```
 */
export function optionalFrameworks(format: 'cjs' | 'esm'): Plugin {
  return {
    name: 'optional-frameworks',
    setup(build) {
      build.onResolve({ filter: FRAMEWORK_SPECIFIER }, (args) => {
        // The guard's own require: left to Node.
        if (args.namespace === NAMESPACE) return { path: args.path, external: true };
        return { path: args.path, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const [framework, entry] = frameworkOf(args.path)!;
        if (format === 'cjs') return { contents: guardedRequire(args.path, framework, entry), loader: 'js' };
        // The names the framework exports (it is a devDependency here).
        const names = Object.keys((await import(args.path)) as object);
        return { contents: guardedImport(args.path, framework, entry, names), loader: 'js' };
      });
    },
  };
}
