import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { vitestAliases } from './package-entries.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');

const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'];
// The majors that need Node 22 run there, with their own packages: `npm run test:majors`;
// the tests in a real browser with `npm run test:browser` (vitest.browser.config.ts).
const EXCLUDED = [...configDefaults.exclude, 'test/majors/**', 'test/browser/**'];

/**
 * Test files that run after the rest, one at a time: each starts a crowd of processes
 * (the chaos runs: recorders, sweepers, a Redis Cluster), or measures a child's memory or
 * its event loop's longest block, and on two cores a second file beside it turns its
 * waits into time-outs. The rest run two at a time.
 */
const ALONE = [
  'test/store/redis-chaos.test.ts',
  'test/store/settle-window.test.ts',
  'test/store/recipe-several-instances.test.ts',
  'test/recorder/heap-drain.test.ts',
  'test/recorder/burst-heap.test.ts',
  'test/recorder/outcomes.test.ts',
  'test/recorder/exit-hook.test.ts',
  'src/recorder/worker.test.ts',
];

export default defineConfig({
  // The examples import the package by name, as users do; here each name is its source
  // (package-entries.ts).
  resolve: {
    alias: vitestAliases(ROOT),
  },
  test: {
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
    projects: [
      { extends: true, test: { name: 'shared', include: ALL, exclude: [...EXCLUDED, ...ALONE], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
