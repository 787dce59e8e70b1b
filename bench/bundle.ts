import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions } from 'esbuild';
import { DIST } from './sdk.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A user's module: the client, and a conversation recorded and ended. */
const entry = (from: string) => `
import { NebulyClient } from '${from}';
const nebuly = new NebulyClient({ apiKey: 'key' });
const conversation = nebuly.startConversation({ end_user: 'user' });
const turn = conversation.interaction({ input: 'Hi' });
turn.llm({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello' });
turn.end({ output: 'Hello' });
await conversation.end();
`;

export interface BundleResult {
  /** The user's bundle, minified, bytes. */
  minifiedBytes: number;
  /** The same, gzipped, bytes. */
  gzipBytes: number;
  /**
   * Gzipped bytes of a bundle that imports only `usdToMicroDollars` from the built
   * package: what tree-shaking leaves of it (no client, no ky, no zod).
   */
  builderOnlyGzipBytes: number;
  /** Gzipped bytes each part adds, from bundles of the sources with that part left out. */
  gzipBytesBy: { zod: number; ky: number; sdk: number };
  /** Minified bytes of the sources' bundle by origin: zod, ky, and each folder of `src/`. */
  minifiedBytesBy: Record<string, number>;
  /** The heaviest inputs of the sources' bundle, minified bytes. */
  heaviestInputs: { input: string; bytes: number }[];
}

/** `node_modules/zod/v4/core/schemas.js` → `zod`; `src/recorder/turn.ts` → `src/recorder`. */
function origin(input: string): string {
  const module = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (module?.[1] !== undefined) return module[1];
  const folder = /^(src\/[^/]+)\//.exec(input);
  return folder?.[1] ?? input;
}

async function bundle(from: string, external: string[] = [], contents = entry(from)) {
  const options: BuildOptions = {
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'user-entry.ts' },
    bundle: true,
    minify: true,
    treeShaking: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    outfile: 'user-bundle.js',
    external,
    logLevel: 'silent',
  };
  const result = await build(options);
  const output = result.outputFiles?.[0]?.contents ?? new Uint8Array();
  const inputs = Object.values(result.metafile?.outputs ?? {})[0]?.inputs ?? {};
  return { minified: output.length, gzip: gzipSync(output).length, inputs };
}

/**
 * The main entry as a user's bundler sees it: esbuild, minified and tree-shaken, from the
 * built `dist/index.js`, then gzipped. The attribution bundles the sources with zod, then
 * ky, left out, and compares.
 */
export async function benchBundle(): Promise<BundleResult> {
  const index = fileURLToPath(new URL('index.js', DIST));
  const built = await bundle(index);
  const builderOnly = await bundle(index, [], `import { usdToMicroDollars } from ${JSON.stringify(index)};
console.log(usdToMicroDollars(1));`);
  const sources = await bundle('./src/index.ts');
  const withoutZod = await bundle('./src/index.ts', ['zod', 'zod/*']);
  const withoutKy = await bundle('./src/index.ts', ['ky']);
  const withoutBoth = await bundle('./src/index.ts', ['zod', 'zod/*', 'ky']);
  return {
    minifiedBytes: built.minified,
    gzipBytes: built.gzip,
    builderOnlyGzipBytes: builderOnly.gzip,
    gzipBytesBy: {
      zod: sources.gzip - withoutZod.gzip,
      ky: sources.gzip - withoutKy.gzip,
      sdk: withoutBoth.gzip,
    },
    minifiedBytesBy: Object.entries(sources.inputs).reduce<Record<string, number>>((groups, [input, { bytesInOutput }]) => {
      const key = origin(input);
      groups[key] = (groups[key] ?? 0) + bytesInOutput;
      return groups;
    }, {}),
    heaviestInputs: Object.entries(sources.inputs)
      .map(([input, { bytesInOutput }]) => ({ input, bytes: bytesInOutput }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 8),
  };
}
