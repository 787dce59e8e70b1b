import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The main entry runs anywhere fetch does: ky and zod are bundled so that the
    // CommonJS build works on every Node 20 (ky is ESM-only) and bundlers see one file.
    entry: {
      index: 'src/index.ts',
      'reference-server': 'src/reference-server/index.ts',
      msw: 'src/reference-server/msw.ts',
      openai: 'src/integrations/openai.ts',
      anthropic: 'src/integrations/anthropic.ts',
      'ai-sdk': 'src/integrations/ai-sdk/index.ts',
      langchain: 'src/integrations/langchain/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    noExternal: ['ky'],
    // The integrations' frameworks are optional peer dependencies: never bundled.
    external: ['msw', /^node:/, 'openai', '@anthropic-ai/sdk', 'ai', /^@langchain\//],
    // One copy of the recorder shared by every entry, in both formats: an integration
    // checks `instanceof Turn` on turns the main entry made, and reaches their internals.
    splitting: true,
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
