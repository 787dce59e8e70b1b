import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 15_000,
    // The API key must never leak; tests use canary keys and look for them in output.
    restoreMocks: true,
    unstubEnvs: true,
  },
});
