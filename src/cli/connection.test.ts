import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveHost, resolveKey } from './connection.js';

describe('resolveHost', () => {
  const env = { NEBULY_BASE_URL: 'http://127.0.0.1:8787/', NEBULY_REGION: 'eu' };

  it.each([
    [{ 'base-url': 'https://proxy.test/nebuly/' }, env, 'https://proxy.test/nebuly', '--base-url'],
    [{ region: 'eu' }, env, 'https://backend.eu.nebuly.com', '--region eu'],
    [{}, env, 'http://127.0.0.1:8787', 'NEBULY_BASE_URL'],
    [{}, { NEBULY_REGION: 'EU' }, 'https://backend.eu.nebuly.com', 'NEBULY_REGION=EU'],
    [{}, { NEBULY_BASE_URL: ' ' }, 'https://backend.nebuly.com', 'default (region us)'],
  ])('flags beat the environment, the base URL beats the region: %o with %o → %s', (flags, environment, url, source) => {
    expect(resolveHost(flags, environment)).toEqual({ baseUrl: url, shown: url, source });
  });

  it('names the setting that is wrong', () => {
    expect(() => resolveHost({ region: 'asia' }, {})).toThrow('--region: unknown region "asia"; use us or eu');
    expect(() => resolveHost({}, { NEBULY_BASE_URL: 'backend.nebuly.com' })).toThrow(/^NEBULY_BASE_URL: not a URL/);
    expect(() => resolveHost({ 'base-url': 'ftp://x' }, {})).toThrow('--base-url: the URL must start with https:// or http://');
  });

  it('never quotes a value that may be a key pasted into the wrong variable', () => {
    const key = 'nb-0123456789abcdef0123456789abcdef';
    for (const environment of [{ NEBULY_REGION: key }, { NEBULY_BASE_URL: key }]) {
      expect(() => resolveHost({}, environment)).toThrow(/^NEBULY_(REGION|BASE_URL): /);
      try {
        resolveHost({}, environment);
      } catch (error) {
        expect((error as Error).message).not.toContain(key);
      }
    }
    expect(() => resolveHost({}, { NEBULY_REGION: key })).toThrow('NEBULY_REGION: unknown region (a 35-character value, not shown); use us or eu');
  });
});

describe('resolveKey', () => {
  it('reads --api-key-file before NEBULY_API_KEY, and never puts the key in a message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nebuly-key-'));
    try {
      const path = join(dir, 'key');
      await writeFile(path, 'key-from-file\n');
      await expect(resolveKey({ 'api-key-file': path }, { NEBULY_API_KEY: 'env-key' })).resolves.toEqual({
        key: 'key-from-file',
        source: `--api-key-file ${path}`,
      });
      await expect(resolveKey({}, { NEBULY_API_KEY: 'env-key' })).resolves.toEqual({ key: 'env-key', source: 'NEBULY_API_KEY' });
      await writeFile(path, '  \n');
      await expect(resolveKey({ 'api-key-file': path }, {})).rejects.toThrow(`--api-key-file: ${path} is empty`);
      await expect(resolveKey({ 'api-key-file': join(dir, 'absent') }, {})).rejects.toThrow(/cannot read .*absent \(ENOENT\)/);
      await expect(resolveKey({}, {})).rejects.toThrow('no API key: set NEBULY_API_KEY, or pass --api-key-file <path>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
