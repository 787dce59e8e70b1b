import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Issue } from '../utils/issues.js';
import { checkOptions, constructionError, group } from './option-checks.js';
import { flag, number, text } from './option-kinds.js';

const INNER = { leaseMs: number({ min: 1, unit: 'milliseconds' }).or(300), sendOnExit: flag().or(true) };
const SPECS = {
  apiKey: text().env('TEST_OPTION_KEY'),
  region: text().or('us'),
  maxRetries: number({ min: 0, whole: true }).or(4),
  recorder: group(INNER),
};

function check(given: unknown) {
  const issues: Issue[] = [];
  const resolved = checkOptions(given, SPECS, { path: [], issues });
  return { resolved, issues: issues.map(({ path, message }) => `${path.join('.')}: ${message}`) };
}

afterEach(() => vi.unstubAllEnvs());

describe('checkOptions', () => {
  it('fills in defaults, nested groups included, and reads the environment variable of an absent option', () => {
    vi.stubEnv('TEST_OPTION_KEY', 'from-env');
    expect(check(undefined)).toEqual({
      resolved: { apiKey: 'from-env', region: 'us', maxRetries: 4, recorder: { leaseMs: 300, sendOnExit: true } },
      issues: [],
    });
    expect(check({ apiKey: 'given', recorder: { leaseMs: 5 } }).resolved).toMatchObject({ apiKey: 'given', recorder: { leaseMs: 5, sendOnExit: true } });
  });

  it('collects every problem at its path, nested ones included', () => {
    expect(check({ region: 5, maxRetries: 1.5, recorder: { leaseMs: 0, sendOnExit: 'yes' } }).issues).toEqual([
      'region: must be a string (got number)',
      'maxRetries: must be a whole number, zero or more',
      'recorder.leaseMs: must be a number of milliseconds, 1 or more',
      'recorder.sendOnExit: must be true or false',
    ]);
  });

  it('suggests the nearest known name, with its whole path, or lists the names', () => {
    expect(check({ maxRetry: 1, recorder: { leaseM: 1, colour: 'red' } }).issues).toEqual([
      'maxRetry: is not an option; did you mean `maxRetries`?',
      'recorder.leaseM: is not an option; did you mean `recorder.leaseMs`?',
      'recorder.colour: is not an option; the options are `recorder.leaseMs`, `recorder.sendOnExit`',
    ]);
  });

  it('never repeats a name that is no word: it may be a key pasted in the wrong place', () => {
    expect(check({ sk_live_1234567890abcdef: true }).issues).toEqual([': has an unknown option (a 24-character name, not shown)']);
    expect(check({ recorder: { 'sk-live 12345678': true } }).issues).toEqual(['recorder: has an unknown option (a 16-character name, not shown)']);
  });

  it('turns a getter or Proxy that throws into a problem naming the option', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const getter = Object.defineProperty({}, 'region', { enumerable: true, get: () => { throw new Error('no'); } });
    expect(check(getter).issues).toEqual(['region: could not be read (a getter or Proxy threw)']);
    expect(check({ recorder: revoked.proxy }).issues).toEqual(['recorder: could not be read (a getter or Proxy threw)']);
    expect(check(null).issues).toEqual([': must be an object (got null)']);
  });
});

describe('constructionError', () => {
  it('is a TypeError listing each problem by its path, the root as `options`', () => {
    const error = constructionError([
      { path: [], message: 'must be an object (got null)', code: 'custom' },
      { path: ['recorder', 'leaseMs'], message: 'must be a number, 1 or more', code: 'custom' },
    ]);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('nebuly-client: `options` must be an object (got null); `recorder.leaseMs` must be a number, 1 or more');
  });
});
