import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import base from '../../vitest.config.js';

const MAJORS = fileURLToPath(new URL('.', import.meta.url));

/**
 * The one framework the source imports at run time, @langchain/core (the handler extends
 * its BaseCallbackHandler), resolved as from here: the majors' copy, the one
 * @langchain/openai uses, as in an app that has one copy.
 */
const majorsLangChain: Plugin = {
  name: 'majors-langchain-core',
  enforce: 'pre',
  resolveId(source, importer) {
    if (!source.startsWith('@langchain/core/') || importer === undefined || importer.startsWith(MAJORS)) return null;
    return this.resolve(source, `${MAJORS}nebuly.ts`, { skipSelf: true });
  },
};

/**
 * The tests of the framework majors that need Node 22 (scripts/majors.mjs runs them there),
 * with the root's aliases: `nebuly-client/*` is the source.
 */
// The root's projects (which files run two at a time) are the root suite's; these run as one.
const { projects: _projects, ...test } = base.test ?? {};

export default defineConfig({
  ...base,
  plugins: [majorsLangChain],
  test: { ...test, include: ['test/majors/**/*.test.ts'], exclude: ['**/node_modules/**'] },
});
