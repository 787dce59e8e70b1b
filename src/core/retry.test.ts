import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, MAX_RETRY_AFTER_MS, nextAttempt, retryAfterMs, unresolvedHost } from './retry.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-05-01T10:00:00Z');

  it.each([
    ['0', 0],
    ['5', 5_000],
    [' 12 ', 12_000],
    ['3600', MAX_RETRY_AFTER_MS],
    ['Fri, 01 May 2026 10:00:30 GMT', 30_000],
    ['Friday, 01-May-26 10:00:30 GMT', 30_000],
    ['Thu, 30 Apr 2026 10:00:00 GMT', 0],
    ['Sat, 02 May 2026 10:00:00 GMT', MAX_RETRY_AFTER_MS],
  ])('reads %j as %i ms', (value, expected) => {
    expect(retryAfterMs(value, now)).toBe(expected);
  });

  it.each([null, '', 'soon', '1.5', '-1', '2026-05-01T10:00:30Z', '1e3', 'Fri, garbage GMT', 'Fri May  1 10:00:30 2026'])(
    'ignores %j',
    (value) => {
      expect(retryAfterMs(value, now)).toBeUndefined();
    },
  );
});

describe('backoffMs', () => {
  it('doubles from the base, capped at 8 s, between half and all of it', () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffMs(500, retry))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000]);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(backoffMs(500, 2)).toBe(500);
  });
});

describe('nextAttempt', () => {
  const policy = { maxRetries: 2, retryDelayMs: 100 };

  it('retries time-outs, network failures and the retryable statuses while retries are left', () => {
    expect(nextAttempt({ kind: 'timeout' }, 1, policy)).toMatchObject({ retry: true, reason: 'timed out' });
    expect(nextAttempt({ kind: 'network' }, 2, policy)).toMatchObject({ retry: true });
    expect(nextAttempt({ kind: 'response', status: 503 }, 1, policy)).toMatchObject({ retry: true, reason: 'answered 503' });
    expect(nextAttempt({ kind: 'network' }, 3, policy)).toEqual({ retry: false });
  });

  it('never retries another status, a redirect included', () => {
    for (const status of [301, 302, 307, 308, 400, 401, 413, 422]) {
      expect(nextAttempt({ kind: 'response', status }, 1, policy)).toEqual({ retry: false });
    }
  });

  it('waits what Retry-After asks, else the backoff', () => {
    expect(nextAttempt({ kind: 'response', status: 429, retryAfter: '3' }, 1, policy)).toEqual({
      retry: true,
      delayMs: 3_000,
      reason: 'answered 429 with Retry-After',
    });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    expect(nextAttempt({ kind: 'response', status: 429, retryAfter: 'soon' }, 2, policy)).toMatchObject({ delayMs: 200 });
  });
});

describe('a host that does not resolve', () => {
  const policy = { maxRetries: 4, retryDelayMs: 250 };
  const dnsError = (code: string) => Object.assign(new Error(`getaddrinfo ${code} api.example.invalid`), { code, hostname: 'api.example.invalid' });

  it('is found in node:http’s error and in the cause of fetch’s', () => {
    expect(unresolvedHost(dnsError('ENOTFOUND'))).toBe('api.example.invalid');
    expect(unresolvedHost(new TypeError('fetch failed', { cause: dnsError('ENOTFOUND') }))).toBe('api.example.invalid');
    expect(unresolvedHost(Object.assign(new Error('x'), { code: 'ENOTFOUND' }))).toBe('');
  });

  it('is never retried; a resolver that did not reply (EAI_AGAIN) and other failures are', () => {
    expect(nextAttempt({ kind: 'network', error: new TypeError('fetch failed', { cause: dnsError('ENOTFOUND') }) }, 1, policy)).toEqual({ retry: false });
    expect(nextAttempt({ kind: 'network', error: dnsError('EAI_AGAIN') }, 1, policy)).toMatchObject({ retry: true });
    expect(nextAttempt({ kind: 'network', error: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }, 1, policy)).toMatchObject({ retry: true });
    expect(nextAttempt({ kind: 'network' }, 1, policy)).toMatchObject({ retry: true });
  });

  it('is not looked for past a getter that throws', () => {
    const hostile = Object.defineProperty({}, 'code', { get: () => { throw new Error('trap'); } });
    expect(unresolvedHost(hostile)).toBeUndefined();
  });
});
