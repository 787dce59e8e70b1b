import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { describe, expect, it } from 'vitest';
import configs from '../../tsup.config.js';

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
