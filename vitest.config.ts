import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The examples import the package by name, as users do; here that name is the source.
  resolve: {
    alias: [
      { find: /^nebuly-client$/, replacement: source('./src/index.ts') },
      { find: /^nebuly-client\/msw$/, replacement: source('./src/reference-server/msw.ts') },
      { find: /^nebuly-client\/reference-server$/, replacement: source('./src/reference-server/index.ts') },
      { find: /^nebuly-client\/node$/, replacement: source('./src/node/index.ts') },
      { find: /^nebuly-client\/reference-server\/web$/, replacement: source('./src/reference-server/web.ts') },
      { find: /^nebuly-client\/schemas$/, replacement: source('./src/schemas/public.ts') },
      { find: /^nebuly-client\/ai-sdk$/, replacement: source('./src/integrations/ai-sdk/index.ts') },
      { find: /^nebuly-client\/langchain$/, replacement: source('./src/integrations/langchain/index.ts') },
      { find: /^nebuly-client\/openai$/, replacement: source('./src/integrations/openai.ts') },
      { find: /^nebuly-client\/anthropic$/, replacement: source('./src/integrations/anthropic.ts') },
      { find: /^nebuly-client\/redis$/, replacement: source('./src/redis/index.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 15_000,
    // Spies and stubbed env vars never leak from one test into the next.
    restoreMocks: true,
    unstubEnvs: true,
  },
});
