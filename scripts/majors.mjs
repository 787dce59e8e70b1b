#!/usr/bin/env node
/**
 * Runs the tests of the framework majors that need Node 22 (test/majors/: ai 7, openai 7,
 * @openai/agents, @google/genai 3) on each Node of scripts/node-runtimes (22 and 24); the rest of the suite
 * runs on the machine's Node (`npm test`).
 *
 * The majors are a package of their own (test/majors/package.json and its lock), installed
 * with `npm ci` on Node 22, so that the root lock keeps the majors that run on Node 20 and
 * each tree has one copy of each framework. Test files there import the frameworks by
 * name and get those of test/majors/node_modules.
 *
 * @example
 * ```sh
 * npm run test:majors          # Node 22 and 24
 * npm run test:majors -- 24    # Node 24 only
 * ```
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeRuntime, npmCli } from './node-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const majors = join(root, 'test/majors');
const runtimes = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['22', '24'];

const node22 = nodeRuntime('22');
// npm ci empties node_modules first: skip it when what is installed is the lock's.
const installed = join(majors, 'node_modules/.package-lock.json');
const lock = JSON.parse(readFileSync(join(majors, 'package-lock.json'), 'utf8'));
const upToDate =
  existsSync(installed) && JSON.stringify(JSON.parse(readFileSync(installed, 'utf8')).packages) === JSON.stringify(withoutRoot(lock.packages));
if (!upToDate) {
  execFileSync(node22, [npmCli(), 'ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: majors, stdio: 'inherit' });
}

// The majors' test files, type-checked as a user sees the package: the built declarations
// (dist/, built first when missing; CI builds before) with the majors' own typings.
if (!existsSync(join(root, 'dist/ai-sdk.d.ts'))) {
  execFileSync(process.execPath, [npmCli(), 'run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(majors, 'tsconfig.json')], {
  stdio: 'inherit',
});

for (const major of runtimes) {
  const node = nodeRuntime(major);
  console.log(`\n# test/majors on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()}`);
  execFileSync(node, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(majors, 'vitest.config.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
}

/** The lock's packages as npm writes them into node_modules/.package-lock.json: without the root. */
function withoutRoot(packages) {
  const { '': _root, ...rest } = packages;
  return rest;
}
