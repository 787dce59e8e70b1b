import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The main entry runs anywhere fetch does: ky and zod are bundled so that the
    // CommonJS build works on every Node 20 (ky is ESM-only) and bundlers see one file.
    entry: {
      index: 'src/index.ts',
      'reference-server': 'src/reference-server/index.ts',
      msw: 'src/reference-server/msw.ts',
      // The framework integrations share the main entry's classes (a target's
      // `instanceof NebulyClient` must hold for the user's client): same build, split chunks.
      'ai-sdk': 'src/integrations/ai-sdk/index.ts',
      langchain: 'src/integrations/langchain/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    // Shared chunks in CommonJS too (ESM splits by default): an integration entry must
    // not carry a copy of the classes its targets are checked against.
    splitting: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    noExternal: ['ky'],
    external: ['msw', 'ai', /^@langchain\/core(\/|$)/, /^node:/],
    treeshake: true,
    // Keep `node:` specifiers as written: they are what Deno and Bun resolve too.
    removeNodeProtocol: false,
  },
  {
    entry: { cli: 'src/reference-server/cli.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    noExternal: ['ky'],
    banner: { js: '#!/usr/bin/env node' },
    removeNodeProtocol: false,
  },
]);
