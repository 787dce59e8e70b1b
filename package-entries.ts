/**
 * The package's entries: the one table that every other list of them derives from.
 *
 * `tsup.config.ts` and `vitest.config.ts` read it directly. The JSON files cannot import
 * it, so `npm run entries` writes their lists from it (package.json `exports` and
 * `typesVersions`, tsconfig.json `paths`, typedoc.json `entryPoints`) and
 * test/package/entries.test.ts fails while any of them differs.
 *
 * To add an entry: one line here, then `npm run entries`.
 *
 * @example
 * ```ts
 * { subpath: 'otel', source: 'src/integrations/otel/index.ts', framework: '@opentelemetry/sdk-trace-base' },
 * ```
 */

/** One entry of the package. */
export interface PackageEntry {
  /** What users import after `nebuly-client/`; `''` for the package root. */
  readonly subpath: string;
  /** The source file the entry is built from. */
  readonly source: string;
  /**
   * The optional peer dependency the entry is for, when it is an integration: what
   * users install beside the SDK to use it.
   */
  readonly framework?: string;
  /**
   * Shares nothing with the client at run time (no recorder, no error class): Node's
   * build makes it apart from the client's entries, with its own copy of what it uses
   * (zod, the schemas), so that what they share does not cut the main entry into more
   * files for Node to load (docs/decisions/0004-pay-for-what-you-use.md).
   */
  readonly apart?: boolean;
}

export const PACKAGE_NAME = 'nebuly-client';

export const PACKAGE_ENTRIES: readonly PackageEntry[] = [
  { subpath: '', source: 'src/index.ts' },
  { subpath: 'reference-server', source: 'src/reference-server/index.ts', apart: true },
  { subpath: 'reference-server/web', source: 'src/reference-server/web.ts', apart: true },
  { subpath: 'msw', source: 'src/reference-server/msw.ts', framework: 'msw', apart: true },
  { subpath: 'node', source: 'src/node/index.ts' },
  { subpath: 'schemas', source: 'src/schemas/public.ts', apart: true },
  { subpath: 'openai', source: 'src/integrations/openai.ts', framework: 'openai' },
  { subpath: 'anthropic', source: 'src/integrations/anthropic.ts', framework: '@anthropic-ai/sdk' },
  { subpath: 'ai-sdk', source: 'src/integrations/ai-sdk/index.ts', framework: 'ai' },
  { subpath: 'langchain', source: 'src/integrations/langchain/index.ts', framework: '@langchain/core' },
  { subpath: 'otel', source: 'src/integrations/otel/index.ts', framework: '@opentelemetry/sdk-trace-base' },
  { subpath: 'openai-agents', source: 'src/integrations/openai-agents/index.ts', framework: '@openai/agents' },
  { subpath: 'google-genai', source: 'src/integrations/google-genai.ts', framework: '@google/genai' },
  { subpath: 'bedrock', source: 'src/integrations/bedrock.ts', framework: '@aws-sdk/client-bedrock-runtime' },
  { subpath: 'redis', source: 'src/redis/index.ts' },
  { subpath: 'browser', source: 'src/browser/index.ts', apart: true },
];

/** The import path users write: `nebuly-client`, `nebuly-client/openai`. */
export function importPath(entry: PackageEntry): string {
  return entry.subpath === '' ? PACKAGE_NAME : `${PACKAGE_NAME}/${entry.subpath}`;
}

/** The name of the entry's built files in dist/: `index`, `reference-server-web`. */
export function distName(entry: PackageEntry): string {
  return entry.subpath === '' ? 'index' : entry.subpath.replaceAll('/', '-');
}

/** tsup's `entry`: dist name → source file; only the entries `which` keeps, when given. */
export function tsupEntries(which: (entry: PackageEntry) => boolean = () => true): Record<string, string> {
  return Object.fromEntries(PACKAGE_ENTRIES.filter(which).map((entry) => [distName(entry), entry.source]));
}

/** package.json `exports`: per entry, the bundlers' ESM, Node's ESM (`node`), CommonJS, and their types. */
export function packageExports(): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  for (const entry of PACKAGE_ENTRIES) {
    const name = distName(entry);
    exports[entry.subpath === '' ? '.' : `./${entry.subpath}`] = {
      import: { types: `./dist/${name}.d.ts`, node: `./dist/node/${name}.js`, default: `./dist/${name}.js` },
      require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
    };
  }
  exports['./package.json'] = './package.json';
  return exports;
}

/** package.json `typesVersions`: the subpaths' types for TypeScript's legacy `moduleResolution: node`. */
export function packageTypesVersions(): Record<string, Record<string, string[]>> {
  const paths = PACKAGE_ENTRIES.filter((entry) => entry.subpath !== '').map((entry) => [entry.subpath, [`./dist/${distName(entry)}.d.ts`]]);
  return { '*': Object.fromEntries(paths) };
}

/** tsconfig.json `paths`: each import path to its source, for the tests, examples and benchmarks. */
export function tsconfigPaths(): Record<string, string[]> {
  return Object.fromEntries(PACKAGE_ENTRIES.map((entry) => [importPath(entry), [`./${entry.source}`]]));
}

/** vitest's `resolve.alias`: each import path, exactly, to its source file (absolute, under `root`). */
export function vitestAliases(root: string): { find: RegExp; replacement: string }[] {
  return PACKAGE_ENTRIES.map((entry) => ({
    find: new RegExp(`^${importPath(entry).replaceAll('/', '\\/')}$`),
    replacement: `${root}/${entry.source}`,
  }));
}

/** typedoc.json `entryPoints`: each entry's source, one module of the API reference each. */
export function typedocEntryPoints(): string[] {
  return PACKAGE_ENTRIES.map((entry) => entry.source);
}
