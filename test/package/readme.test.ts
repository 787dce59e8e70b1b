import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import configs from '../../tsup.config.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(`${ROOT}README.md`, 'utf8');
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as Record<string, unknown>;

/** The files `npm pack` puts in the tarball (dist/ only when it was built). */
function tarballFiles(): string[] {
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  ) as [{ files: { path: string }[] }];
  return pack.files.map((file) => file.path);
}

describe('the README as npm shows it', () => {
  it('opens with npm install: its first command is the install', () => {
    const firstBlock = /```sh\n([^`]*)```/.exec(readme)?.[1];
    expect(firstBlock?.trim()).toBe('npm install nebuly-client');
  });

  it('keeps the repository set-up commands, under Development', () => {
    const development = readme.slice(readme.indexOf('## Development'));
    expect(development).toContain('npm ci && npm run demo');
    expect(development).toContain('npm ci && npm test');
  });

  it('links, like every guide in the tarball, only to files the tarball has or to absolute URLs', () => {
    const files = tarballFiles();
    const guides = files.filter((file) => file.endsWith('.md'));
    expect(guides).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/client.md']));
    for (const guide of guides) {
      const text = readFileSync(`${ROOT}${guide}`, 'utf8');
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
      for (const link of links.filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))) {
        expect(files, `${guide} → ${link}`).toContain(posix.normalize(posix.join(posix.dirname(guide), link.split('#')[0]!)));
      }
    }
  });
});

/** The body of the first fenced block of `language` in the README's section `heading`. */
function block(heading: string, language: string): string {
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const body = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section)?.[1];
  if (body === undefined) throw new Error(`README: no ${language} block under ${heading}`);
  return body;
}

/** The words of the offline section's command line that starts with `start`, its comment left out. */
function command(start: string): string[] {
  const line = block('### Run it offline', 'sh').split('\n').find((text) => text.startsWith(start));
  if (line === undefined) throw new Error(`README: no \`${start}\` line under Run it offline`);
  return line.replace(/#.*$/, '').trim().split(/\s+/).slice(start.split(' ').length);
}

describe('the quick start, run as the README says, against the reference server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nebuly-quick-start-'));
  // The README's `export` line: the two environment variables.
  const exported = Object.fromEntries(command('export').map((pair) => pair.split('=') as [string, string]));
  const [script] = command('npx tsx');
  let server: ReturnType<typeof spawn>;
  let serverOutput = '';
  let url = '';

  beforeAll(async () => {
    writeFileSync(join(dir, script!), block('## Quick start', 'ts'));
    // The README's server command, from source, on a free port (tests run side by side).
    const args = [...command('npx nebuly-reference-server'), '--port', '0'];
    server = spawn(process.execPath, ['--import', 'tsx', 'src/reference-server/cli.ts', ...args], { cwd: ROOT });
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => (serverOutput += chunk));
    while (!/listening on (\S+)/.test(serverOutput)) await once(server.stdout!, 'data');
    url = /listening on (http:\/\/\S+)/.exec(serverOutput)![1]!;
  }, PROCESS_TIMEOUT_MS);

  afterAll(() => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the saved quick start as a user does (`npx tsx`), `nebuly-client` resolving to the source. */
  async function quickStart(env: Record<string, string>) {
    const tsx = fileURLToPath(import.meta.resolve('tsx'));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', tsx, script!], {
      cwd: dir,
      timeout: PROCESS_TIMEOUT_MS,
      env: { PATH: process.env.PATH, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'), ...env },
    });
    return { stdout, stderr };
  }

  it('sets the key the server accepts, and its default address', () => {
    expect(script).toMatch(/\.mts$/);
    expect(Object.keys(exported).sort()).toEqual(['NEBULY_API_KEY', 'NEBULY_BASE_URL']);
    expect(exported.NEBULY_BASE_URL).toBe('http://127.0.0.1:8787');
    expect(command('npx nebuly-reference-server')).toEqual(['--api-key', exported.NEBULY_API_KEY]);
  });

  it('prints the conversation it delivered, and the server the request it took', async () => {
    const { stdout, stderr } = await quickStart({ ...exported, NEBULY_BASE_URL: url });
    expect(stdout).toMatch(/^Delivered conversation [0-9a-f-]{36}\n$/);
    expect(stderr).toBe('');
    // The server's own output, read as it arrives.
    await vi.waitFor(() => expect(serverOutput).toMatch(/POST \/event-ingestion\/api\/v2\/events\/trace_conversation 202 [\d.]+ms/), { timeout: PROCESS_TIMEOUT_MS });
    expect(readme).toContain('`POST /event-ingestion/api/v2/events/trace_conversation 202 3ms`');
  });

  it('with a made-up key: says it was not delivered, why (401), and what checks it', async () => {
    const { stdout, stderr } = await quickStart({ ...exported, NEBULY_BASE_URL: url, NEBULY_API_KEY: 'made-up-key' });
    expect(stdout).toBe('');
    expect(stderr).toContain('[nebuly-client] DeliveryError: ');
    expect(stderr).toContain('answered 401');
    expect(stderr).toContain('Not delivered (failed): `npx nebuly doctor` checks the host and the key');
    expect(stderr).not.toContain('made-up-key');
    expect(readme).toContain('- `answered 401`: ');
  });

  it('with no server: names the refused connection, as the README lists it', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as { port: number };
    await new Promise((done) => closed.close(done));
    const { stderr } = await quickStart({ ...exported, NEBULY_BASE_URL: `http://127.0.0.1:${port}` });
    expect(stderr).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(stderr).toContain('Not delivered (failed): `npx nebuly doctor` checks the host and the key');
    expect(readme).toContain('- `ECONNREFUSED 127.0.0.1:8787`: ');
  });

  it('with a host that does not resolve: names it, after one attempt, as the README lists it', async () => {
    // RFC 6761: no name under .invalid resolves, anywhere.
    const { stderr } = await quickStart({ ...exported, NEBULY_BASE_URL: 'http://nebuly-quick-start.invalid:8787', NEBULY_LOG: 'info' });
    expect(stderr).toContain('failed: the host nebuly-quick-start.invalid does not resolve (DNS: ENOTFOUND); check the base URL');
    expect(stderr).not.toContain('retrying'); // each retry is logged at info
    expect(stderr).toContain('Not delivered (failed): `npx nebuly doctor` checks the host and the key');
    expect(readme).toContain('- `the host … does not resolve (DNS: ENOTFOUND)`: ');
  });
});

describe('package.json', () => {
  it('says where the repository, the home page and the issue tracker are', () => {
    expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/nebuly-ai/nebuly-client-js.git' });
    expect(manifest.homepage).toBe('https://github.com/nebuly-ai/nebuly-client-js#readme');
    expect(manifest.bugs).toEqual({ url: 'https://github.com/nebuly-ai/nebuly-client-js/issues' });
  });
});

describe('the build', () => {
  it('writes no source maps: the package is 1.6 MB installed, not 5.3 MB (3.7 MB of maps)', () => {
    for (const config of configs as Options[]) expect(config.sourcemap ?? false).toBe(false);
  });
});

describe('the CHANGELOG', () => {
  const changelog = readFileSync(`${ROOT}CHANGELOG.md`, 'utf8');

  it('has a released section for the version in package.json, below Unreleased, each with its link', () => {
    const version = manifest.version as string;
    const unreleased = changelog.indexOf('## [Unreleased]');
    const released = changelog.search(new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
    expect(unreleased).toBeGreaterThan(-1);
    expect(released).toBeGreaterThan(unreleased);
    expect(changelog).toMatch(new RegExp(`^\\[Unreleased\\]: https://\\S+/compare/v${version}\\.\\.\\.HEAD$`, 'm'));
    expect(changelog).toMatch(new RegExp(`^\\[${version}\\]: https://\\S+/releases/tag/v${version}$`, 'm'));
  });
});
