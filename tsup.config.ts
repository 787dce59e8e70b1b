import { readdirSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { tsupEntries } from './package-entries.js';
import { eagerLocalImportsPlugin } from './scripts/eager-local-imports.js';
import { oneLazyFile } from './scripts/one-lazy-file.js';
import { nodeVariants } from './scripts/node-variants.js';
import { oneEagerChunk } from './scripts/one-eager-chunk.js';
import { namedImportsOnly } from './scripts/named-imports-only.js';
import { BUNDLED_PACKAGES } from './scripts/third-party-notices.js';
import { FRAMEWORK_SPECIFIER, optionalFrameworks } from './scripts/optional-frameworks.js';

/** The package's entry points (package-entries.ts): dist name → source. */
const entry = tsupEntries();

/** The bins, Node programs built apart: `nebuly-reference-server` and `nebuly`. */
const isBinSource = (file: string) => file.startsWith('reference-server/cli') || file.startsWith('cli/');

/** A module that replaces another in Node's build only (scripts/node-variants.ts). */
const isNodeVariant = (file: string) => file.endsWith('.node.ts');

/**
 * Every module of the library, each an entry of its own in the ESM build: the output then
 * keeps one module per source file, and a user's bundler, told by `sideEffects: false`,
 * leaves out every module the user's imports do not reach. In one bundled file, the
 * top-level code of ky and of the schemas would stay whatever was imported.
 */
const modules = Object.fromEntries(
  readdirSync('src', { recursive: true, encoding: 'utf8' })
    .map((file) => file.replaceAll('\\', '/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !isNodeVariant(file) && !isBinSource(file))
    .filter((file) => !Object.values(entry).includes(`src/${file}`))
    .map((file) => [`lib/${file.slice(0, -'.ts'.length)}`, `src/${file}`]),
);

const library: Options = {
  // No source maps in the package: the output is not minified and keeps one module per
  // source file (dist/lib/), so a stack trace already points at readable code. Maps made
  // up 3.7 MB of a 5.3 MB install; without their sources embedded they still took 1.5 MB
  // and pointed at src/, which is not published (`npm pack --dry-run`, CHANGELOG).
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  // ky is bundled so that the CommonJS build works on every Node 20 (ky is ESM-only).
  // zod is bundled (only what the schemas use) for cold start: imported from
  // node_modules it is some 60 files for Node to resolve and load, about 50 ms; bundled,
  // about 0.5 ms (bench/import.ts). Neither is a dependency (shipped once): the
  // declarations they reach are copied (scripts/vendor-zod-types.mjs) and their licences
  // are in THIRD_PARTY_NOTICES.md (scripts/third-party-notices.ts, the list).
  noExternal: [...BUNDLED_PACKAGES],
  // The integrations import their frameworks as types only; kept external all the same.
  external: ['msw', /^node:/, 'openai', '@anthropic-ai/sdk', 'ai', /^@langchain\//, /^@opentelemetry\//, /^@openai\//, 'redis', 'ioredis'],
  treeshake: true,
  // Keep `node:` specifiers as written: they are what Deno and Bun resolve too.
  removeNodeProtocol: false,
};

/** Node's ESM build (dist/node), in two parts that share no chunk; each adds its entries and plugins. */
const nodeBuild: Options = {
  ...library,
  format: ['esm'],
  splitting: true,
  outDir: 'dist/node',
  // Entry files without bare imports of chunks, one more file each (scripts/named-imports-only.ts).
  plugins: [namedImportsOnly()],
  // A framework that is not installed: an error naming the package (scripts/optional-frameworks.ts).
  noExternal: [...(library.noExternal ?? []), FRAMEWORK_SPECIFIER],
};

export default defineConfig([
  {
    ...library,
    entry: { ...modules, ...entry },
    format: ['esm'],
    splitting: true,
    dts: { entry },
    clean: true,
    // Entry files without their bare imports of chunks, which made a user's bundler load
    // zod with the entry (scripts/named-imports-only.ts).
    plugins: [namedImportsOnly()],
    // What `new NebulyClient` needs in one chunk of a user's split bundle, not seven
    // (scripts/one-eager-chunk.ts).
    esbuildPlugins: [oneEagerChunk('src', 'src/client.ts')],
    esbuildOptions(options) {
      options.chunkNames = 'lib/chunks/[name]-[hash]';
    },
  },
  {
    // What Node (and Deno, Bun) import: the `node` condition of every entry in `exports`.
    // The same code as the build above, bundled the other way: one file per entry and a
    // few shared chunks, so that importing the main entry loads a handful of files, not
    // one per source file (36 ms against 15 ms; bench/import.ts). Every entry resolves
    // here in Node and in the build above in a bundler, so each process has one copy of
    // the recorder (test/package/node-condition.test.ts). The entries that share nothing
    // with the client at run time are built apart, below.
    ...nodeBuild,
    entry: tsupEntries((e) => e.apart !== true),
    // The SDK's lazy modules in one file, loaded at the first use of any (scripts/one-lazy-file.ts);
    // zod and the schemas made at their first use (scripts/node-variants.ts).
    esbuildPlugins: [optionalFrameworks('esm'), nodeVariants(), oneLazyFile('src', 'src/index.ts')],
  },
  {
    // The schemas and the reference server, apart: shared with the client's entries,
    // zod and the schemas were chunks of their own, each one more file for the main
    // entry to load (package-entries.ts, `apart`).
    ...nodeBuild,
    entry: tsupEntries((e) => e.apart === true),
    esbuildPlugins: [optionalFrameworks('esm'), eagerLocalImportsPlugin()],
  },
  {
    // CommonJS is not tree-shaken by bundlers: one file per entry, and shared chunks so
    // that every entry uses one copy of the recorder (an integration checks
    // `instanceof Turn` on turns the main entry made, and reaches their internals).
    ...library,
    entry,
    format: ['cjs'],
    splitting: true,
    dts: { entry },
    // A framework that is not installed: an error naming the package (scripts/optional-frameworks.ts).
    noExternal: [...(library.noExternal ?? []), FRAMEWORK_SPECIFIER],
    esbuildPlugins: [optionalFrameworks('cjs'), eagerLocalImportsPlugin()],
  },
  {
    // The bins, with what they use bundled (the package has no runtime dependency);
    // nothing here reaches the main entry.
    entry: { cli: 'src/reference-server/cli.ts', nebuly: 'src/cli/main.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    sourcemap: false,
    noExternal: [...BUNDLED_PACKAGES],
    banner: { js: '#!/usr/bin/env node' },
    removeNodeProtocol: false,
  },
]);
