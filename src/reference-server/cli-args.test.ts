import { describe, expect, it } from 'vitest';
import { DEFAULT_CLI_PROJECT, parseCliArgs } from './cli-args.js';

describe('parseCliArgs', () => {
  it('reads port, host, repeated keys, key=project and --project', () => {
    const config = parseCliArgs(
      ['--port', '9000', '--host', '0.0.0.0', '--api-key', 'dev-key', '--api-key', 'key-b=project-b', '--project', 'dev-project'],
      {},
    );
    expect(config).toEqual({
      port: 9000,
      host: '0.0.0.0',
      apiKeys: { 'dev-key': 'dev-project', 'key-b': 'project-b' },
      bodyLimitBytes: undefined,
      print: false,
      experimentsFile: undefined,
      help: false,
    });
  });

  it('defaults to port 8787 on loopback, and takes the key from NEBULY_API_KEY', () => {
    expect(parseCliArgs([], { NEBULY_API_KEY: 'env-key' })).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      apiKeys: { 'env-key': DEFAULT_CLI_PROJECT },
    });
  });

  it('keeps base64 padding in a bare key, and splits at the last =', () => {
    expect(parseCliArgs(['--api-key', 'abc=='], {}).apiKeys).toEqual({ 'abc==': DEFAULT_CLI_PROJECT });
    expect(parseCliArgs(['--api-key', 'abc===proj'], {}).apiKeys).toEqual({ 'abc==': 'proj' });
  });

  it('reads --experiments', () => {
    expect(parseCliArgs(['--api-key', 'k', '--experiments', 'ab.json'], {}).experimentsFile).toBe('ab.json');
  });

  it('reads --print', () => {
    expect(parseCliArgs(['--api-key', 'k', '--print'], {}).print).toBe(true);
  });

  it('reads --body-limit, and port 0', () => {
    expect(parseCliArgs(['--api-key', 'k', '--body-limit', '2048', '--port', '0'], {})).toMatchObject({
      bodyLimitBytes: 2048,
      port: 0,
    });
  });

  it.each([
    [[], 'no API key'],
    [['--api-key', 'k', '--port', '70000'], '--port'],
    [['--api-key', 'k', '--port', '12abc'], '--port'],
    [['--api-key', 'k', '--body-limit', '0'], '--body-limit'],
    [['--api-key', 'k', '--project', ' '], '--project'],
    [['--api-key', 'k', '--unknown'], 'Unknown option'],
  ])('rejects %j', (argv, words) => {
    expect(() => parseCliArgs(argv, {})).toThrow(words);
  });

  it('never quotes a stray argument, which may be a key after a mistyped flag', () => {
    expect(() => parseCliArgs(['--api-key', 'k', 'secret-canary'], {})).toThrow(/^(?!.*secret-canary).*unexpected argument/);
  });
});
