import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The main entry runs anywhere fetch does: ky and zod are bundled so that the
    // CommonJS build works on every Node 20 (ky is ESM-only) and bundlers see one file.
    // zod bundled (only what the schemas use) is also most of the cold start: imported
    // from node_modules it is some 60 files for Node to resolve and load, about 50 ms;
    // bundled, about 0.5 ms (bench/import.ts). Its types still come from the `zod`
    // dependency.
    entry: {
      index: 'src/index.ts',
      'reference-server': 'src/reference-server/index.ts',
      msw: 'src/reference-server/msw.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    noExternal: ['ky', 'zod'],
    external: ['msw', /^node:/],
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
