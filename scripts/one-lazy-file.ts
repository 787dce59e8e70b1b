// An esbuild plugin for the ESM build Node loads (dist/node): the SDK's lazy modules (each
// `import('./x.js')` of src/: the recorder's stages, the HTTP engine and transports, the
// typed call, the payload issues, the masks) load at their first use, all from one file.
//
// Why one file: Node pays for every file it loads, and for every byte it compiles. Left
// to itself, esbuild makes each lazy module a split point and cuts the main entry into as
// many chunks as there are sets of entries sharing code (17 files; 52 with every lazy
// module apart, 2.05× langfuse at import). Loaded at import instead
// (scripts/eager-local-imports.ts, still the CommonJS build's way), they add 79 kB that
// Node compiles before `new NebulyClient` and that many processes never run. Here every
// lazy import goes through one virtual module: the lazy modules become one file,
// loaded by the first of them to be needed; and that module also re-exports the main
// entry, so that every module the main entry loads is shared with it alike and esbuild
// keeps them in few chunks (docs/decisions/0004-pay-for-what-you-use.md measures both).
import { readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { LOCAL_DYNAMIC_IMPORT } from './eager-local-imports.js';

/** The virtual module that holds every lazy module; the one file's name starts with it. */
const LAZY = 'nebuly-lazy';

/** The source file a relative `import('./x.js')` in `from` names. */
function sourceOf(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.js$/, '.ts');
}

/**
 * Every module of `srcDir` that another imports with `import()`, sorted: the same list,
 * and so the same export names, for every module the build loads.
 *
 * @example
 * ```ts
 * lazyModules('src'); // ['/repo/src/core/http-engine.ts', '/repo/src/core/typed-call.ts', …]
 * ```
 */
export function lazyModules(srcDir: string): string[] {
  const found = new Set<string>();
  for (const file of readdirSync(srcDir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const path = join(srcDir, file);
    for (const [, , specifier] of readFileSync(path, 'utf8').matchAll(LOCAL_DYNAMIC_IMPORT)) found.add(sourceOf(path, specifier!));
  }
  return [...found].sort();
}

/**
 * The virtual module: each lazy module's namespace as `m0`, `m1`, … (in the order of
 * `modules`), and the main entry's exports, which no one reads there.
 *
 * @example
 * ```ts
 * lazyModuleSource(['/repo/src/a.ts'], '/repo/src/index.ts');
 * // "export * as m0 from \"/repo/src/a.ts\";\nexport * from \"/repo/src/index.ts\";\n"
 * ```
 */
export function lazyModuleSource(modules: readonly string[], mainEntry: string): string {
  const lazy = modules.map((module, index) => `export * as m${index} from ${JSON.stringify(module)};\n`).join('');
  return `${lazy}export * from ${JSON.stringify(mainEntry)};\n`;
}

/**
 * `source` (the file at `path`) with each relative `import('./x.js')` made an import of
 * the virtual module that picks x's namespace out of it.
 *
 * @throws Error naming a lazy import that `modules` does not list.
 *
 * @example
 * ```ts
 * throughLazyModule("await import('./a.js')", '/repo/src/b.ts', ['/repo/src/a.ts']);
 * // "await import(\"nebuly-lazy\").then((lazy) => lazy.m0)"
 * ```
 */
export function throughLazyModule(source: string, path: string, modules: readonly string[]): string {
  return source.replace(LOCAL_DYNAMIC_IMPORT, (_, _quote: string, specifier: string) => {
    const index = modules.indexOf(sourceOf(path, specifier));
    if (index === -1) throw new Error(`${path}: import('${specifier}') is not among the lazy modules of the build`);
    return `import(${JSON.stringify(LAZY)}).then((lazy) => lazy.m${index})`;
  });
}

/**
 * The plugin, for the build whose main entry is `mainEntry`.
 *
 * @example
 * ```ts
 * defineConfig({ entry, format: ['esm'], splitting: true, esbuildPlugins: [oneLazyFile('src', 'src/index.ts')] });
 * ```
 */
export function oneLazyFile(srcDir: string, mainEntry: string): Plugin {
  const root = resolve(srcDir);
  const modules = lazyModules(root);
  return {
    name: 'nebuly-one-lazy-file',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${LAZY}$`) }, () => ({ path: LAZY, namespace: LAZY }));
      build.onLoad({ filter: /.*/, namespace: LAZY }, () => ({
        contents: lazyModuleSource(modules, resolve(mainEntry)),
        resolveDir: root,
        loader: 'ts',
      }));
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        const rewritten = throughLazyModule(source, path, modules);
        return rewritten === source ? undefined : { contents: rewritten, loader: 'ts' };
      });
    },
  };
}
