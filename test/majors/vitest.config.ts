import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

/**
 * The tests of the framework majors that need Node 22 (scripts/majors.mjs runs them there),
 * with the root's aliases: `nebuly-client/*` is the source.
 */
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/majors/**/*.test.ts'], exclude: ['**/node_modules/**'] },
});
