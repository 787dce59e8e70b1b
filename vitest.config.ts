import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { vitestAliases } from './package-entries.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');

export default defineConfig({
  // The examples import the package by name, as users do; here each name is its source
  // (package-entries.ts).
  resolve: {
    alias: vitestAliases(ROOT),
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    // The majors that need Node 22 run there, with their own packages: `npm run test:majors`;
    // the tests in a real browser with `npm run test:browser` (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, 'test/majors/**', 'test/browser/**'],
    // A bound against a hang, not a measure: on a loaded machine (eight suites on two
    // cores) a test that starts Node with tsx waits tens of seconds for it. No verdict
    // depends on time (fake timers or events; test/helpers/process-timeout.ts).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // `expect.poll` waits for an event it cannot subscribe to: as long as a test may take.
    expect: { poll: { timeout: 60_000 } },
    // Spies and stubbed env vars never leak from one test into the next.
    restoreMocks: true,
    unstubEnvs: true,
  },
});
