// The package as a user gets it from a release: clones HEAD (committed files only, no
// dist/), installs, packs (`prepack` builds), installs the tarball into an empty app,
// then runs the README's quick start there against the packed reference server's bin,
// and `npx nebuly --version`. Fails on the first step that does not hold.
//
// Run by .ci/run after the suite (`npm run check:release`), not by vitest: the build
// alone is some 2.5 CPU-minutes, over any test's budget. The clone's node_modules is a
// link to this checkout's, which .ci/run has just installed with `npm ci` from the same
// lock file, so the clone's install is the same tree without a second download;
// `--npm-ci` runs `npm ci --prefer-offline` in the clone instead.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const checkout = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'nebuly-release-'));
const clone = join(work, 'clone');
const app = join(work, 'app');
const started = Date.now();
const step = (what) => console.log(`== ${what} (${Math.round((Date.now() - started) / 1000)} s)`);
const run = (command, args, cwd, extra = {}) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...extra });

/** The first ```ts block after the README's "## Quick start" heading. */
function quickStart(readme) {
  const section = readme.slice(readme.indexOf('\n## Quick start'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match === null) throw new Error('README.md has no ```ts block under "## Quick start"');
  return match[1];
}

/**
 * Starts the packed reference server's bin in the app; resolves with its URL and a stop
 * function that resolves once the server has exited.
 *
 * The bin runs under this Node itself, not through `npx`: npx does not pass SIGTERM on to
 * the server it starts, so the server outlived `stop()`, held its stdout pipe open, and
 * this script never exited (CI ran out of time there).
 */
function startReferenceServer(apiKey) {
  const bin = join(app, 'node_modules/.bin/nebuly-reference-server');
  const child = spawn(process.execPath, [bin, '--port', '0', '--api-key', apiKey], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  const stop = async () => {
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(kill);
  };
  return new Promise((resolveStart, reject) => {
    let output = '';
    child.on('exit', (code) => reject(new Error(`nebuly-reference-server exited (${code}) before listening:\n${output}`)));
    child.stdout.setEncoding('utf8').on('data', (text) => {
      output += text;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url !== undefined) resolveStart({ url, waitFor, stop });
    });
    /** Resolves when the server has printed a line matching `pattern`; rejects after 30 s. */
    const waitFor = (pattern) =>
      new Promise((resolveLine, rejectLine) => {
        const check = () => pattern.test(output) && (clearTimeout(timer), child.stdout.off('data', check), resolveLine());
        const timer = setTimeout(() => rejectLine(new Error(`the reference server printed no ${pattern}:\n${output}`)), 30_000);
        child.stdout.on('data', check);
        check();
      });
  });
}

try {
  step(`cloning ${checkout} at HEAD`);
  run('git', ['clone', '--quiet', '--no-hardlinks', checkout, clone], work);
  if (process.argv.includes('--npm-ci')) {
    step('npm ci --prefer-offline in the clone');
    run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], clone);
  } else {
    symlinkSync(join(checkout, 'node_modules'), join(clone, 'node_modules'), 'dir');
  }

  step('npm pack in the clone (prepack builds dist/)');
  // The build prints to stdout too, so the tarball is read back rather than npm's --json.
  run('npm', ['pack', '--pack-destination', work], clone, { stdio: ['ignore', 'ignore', 'inherit'] });
  const manifest = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'));
  const filename = `${manifest.name}-${manifest.version}.tgz`;
  const paths = run('tar', ['-tzf', join(work, filename)], work).trim().split('\n').map((path) => path.replace(/^package\//, ''));
  for (const required of ['LICENSE', 'THIRD_PARTY_NOTICES.md', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/nebuly.js', 'dist/cli.js']) {
    if (!paths.includes(required)) throw new Error(`${filename} lacks ${required}`);
  }
  console.log(`${filename}: ${paths.length} files`);

  step('npm install of the tarball in an empty app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'release-check-app', private: true, type: 'module' }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, filename)], app);
  const installed = run('npm', ['ls', '--all', '--parseable'], app).trim().split('\n').slice(1);
  if (installed.length !== 1) throw new Error(`the tarball installed more than itself:\n${installed.join('\n')}`);

  step('npx nebuly --version');
  const version = run('npx', ['--no-install', 'nebuly', '--version'], app).trim();
  const expected = manifest.version;
  if (!version.includes(expected)) throw new Error(`npx nebuly --version printed "${version}", not ${expected}`);
  console.log(version);

  step("the README's quick start against the packed reference server");
  const server = await startReferenceServer('release-key');
  try {
    writeFileSync(join(app, 'quick-start.mjs'), quickStart(readFileSync(join(clone, 'README.md'), 'utf8')));
    const { NEBULY_REGION: _region, ...env } = process.env;
    const printed = run(process.execPath, ['quick-start.mjs'], app, {
      env: { ...env, NEBULY_BASE_URL: server.url, NEBULY_API_KEY: 'release-key' },
    });
    if (!/Delivered conversation \S+/.test(printed)) throw new Error(`the quick start printed:\n${printed}`);
    console.log(printed.trim());
    // The server prints a line per request it answered: the conversation was stored there.
    await server.waitFor(/POST \/event-ingestion\/api\/v2\/events\/trace_conversation 202/);
  } finally {
    await server.stop();
  }
  step('released as a user gets it');
} finally {
  rmSync(work, { recursive: true, force: true });
}
