import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { vitestAliases } from './package-entries.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');

// The tests in a real headless Chromium (`npm run test:browser`), apart from `npm test`
// (vitest.config.ts excludes test/browser/), which then needs no browser installed.
// test/browser/chromium.ts launches it.
export default defineConfig({
  resolve: { alias: vitestAliases(ROOT) },
  test: {
    include: ['test/browser/**/*.test.ts'],
    // A browser starts in a few seconds, slower on a loaded machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    unstubEnvs: true,
  },
});
