import { delay, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  NebulyClient,
  type ClientOptions,
  TimeoutError,
} from '../../src/index.js';
import { createRecordingServer } from '../helpers/recording-server.js';

const BASE = 'https://backend.nebuly.com';
const service = createRecordingServer(BASE);
beforeAll(service.listen);
afterEach(() => {
  service.reset();
  vi.useRealTimers();
});
afterAll(service.close);

const client = (options: ClientOptions = {}) =>
  new NebulyClient({ apiKey: 'k', baseUrl: BASE, retryDelayMs: 1, ...options });

const conversation = { conversation: { end_user: 'u', interactions: [] } };

/** Each verb the service uses, through a method that sends it. */
const CALLS = {
  'POST (ingestion)': (nebuly: NebulyClient) => nebuly.conversations.send(conversation),
  'POST (external)': (nebuly: NebulyClient) => nebuly.interactions.delete({ filters: [{ kind: 'user', values: ['u'] }] }),
  PUT: (nebuly: NebulyClient) => nebuly.eligibleUsers.update({ users: [] }),
  DELETE: (nebuly: NebulyClient) => nebuly.eligibleUsers.delete({ users: ['u'] }),
  GET: (nebuly: NebulyClient) => nebuly.eligibleUsers.list(),
};

/** Fails the first `failures` requests with `status`, then answers what every endpoint accepts. */
function failFirst(failures: number, status: number, headers: Record<string, string> = {}) {
  service.answer((_request, index) =>
    index < failures
      ? HttpResponse.json({ detail: 'try later' }, { status, headers })
      : HttpResponse.json({ users: [], message: 'ok' }),
  );
}

describe('retries', () => {
  describe.each(Object.entries(CALLS))('%s', (_verb, call) => {
    it.each([408, 429, 500, 502, 503, 504])('retries %i, then succeeds', async (status) => {
      failFirst(2, status);
      await expect(call(client())).resolves.toBeDefined();
      expect(service.requests).toHaveLength(3);
      // The retried request carries the same bytes.
      expect(new Set(service.requests.map((r) => r.body)).size).toBe(1);
    });

    it('retries a network failure, then succeeds', async () => {
      service.answer((_request, index) =>
        index === 0 ? HttpResponse.error() : HttpResponse.json({ users: [], message: 'ok' }),
      );
      await expect(call(client())).resolves.toBeDefined();
      expect(service.requests).toHaveLength(2);
    });
  });

  it.each([400, 401, 403, 404, 409, 413, 422])('never retries %i', async (status) => {
    failFirst(1, status);
    await expect(CALLS['POST (ingestion)'](client())).rejects.toMatchObject({ status });
    expect(service.requests).toHaveLength(1);
  });

  it('gives up after maxRetries and rejects with the last error', async () => {
    failFirst(10, 503);
    await expect(CALLS.GET(client({ maxRetries: 3 }))).rejects.toBeInstanceOf(InternalServerError);
    expect(service.requests).toHaveLength(4);
  });

  it('tries once with maxRetries: 0', async () => {
    failFirst(10, 500);
    await expect(CALLS.GET(client({ maxRetries: 0 }))).rejects.toBeInstanceOf(InternalServerError);
    expect(service.requests).toHaveLength(1);
  });

  it('retries four times by default', async () => {
    failFirst(10, 502);
    await expect(CALLS.GET(client())).rejects.toBeInstanceOf(InternalServerError);
    expect(service.requests).toHaveLength(5);
  });

  it('rejects with ConnectionError when the network fails every time', async () => {
    service.answer(() => HttpResponse.error());
    const error = await CALLS.GET(client({ maxRetries: 2 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('after 3 attempts');
    expect(service.requests).toHaveLength(3);
  });

  it('does not retry a 401 even with Retry-After', async () => {
    failFirst(1, 401, { 'retry-after': '0' });
    await expect(CALLS.GET(client())).rejects.toBeInstanceOf(AuthenticationError);
    expect(service.requests).toHaveLength(1);
  });
});

describe('backoff and Retry-After', () => {
  /** Lets fake time pass until `count` requests arrived, in steps; answers the time it took. */
  async function timeUntilRequests(count: number, stepMs = 50, limitMs = 120_000) {
    let elapsed = 0;
    while (service.requests.length < count && elapsed < limitMs) {
      await vi.advanceTimersByTimeAsync(stepMs);
      elapsed += stepMs;
    }
    return elapsed;
  }

  it('waits the seconds of Retry-After before retrying', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    failFirst(1, 503, { 'retry-after': '5' });
    const done = CALLS['POST (ingestion)'](client({ retryDelayMs: 10 }));
    const waited = await timeUntilRequests(2);
    await done;
    expect(waited).toBeGreaterThanOrEqual(5_000);
    expect(waited).toBeLessThan(5_500);
  });

  it('waits until the HTTP date of Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Dates have whole seconds: aim 10 s ahead and allow for the fraction lost.
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 10_000).toUTCString();
    failFirst(1, 429, { 'retry-after': at });
    const done = CALLS.PUT(client({ retryDelayMs: 10 }));
    const waited = await timeUntilRequests(2);
    await done;
    expect(waited).toBeGreaterThanOrEqual(9_000);
    expect(waited).toBeLessThanOrEqual(11_000);
  });

  it('caps Retry-After at 60 seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    failFirst(1, 503, { 'retry-after': '3600' });
    const done = CALLS.GET(client());
    const waited = await timeUntilRequests(2, 1_000, 4_000_000);
    await done;
    expect(waited).toBeGreaterThanOrEqual(59_000);
    expect(waited).toBeLessThanOrEqual(61_000);
  });

  it('ignores a Retry-After that is neither seconds nor a date, and backs off as usual', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    failFirst(1, 503, { 'retry-after': 'soon' });
    const done = CALLS.GET(client({ retryDelayMs: 200 }));
    const waited = await timeUntilRequests(2, 10);
    await done;
    expect(waited).toBe(200);
  });

  it.each([
    ['RateLimit-Reset', 'soon'],
    ['RateLimit-Reset', '30'],
    ['X-RateLimit-Reset', String(Math.floor(Date.now() / 1000) + 3_600)],
    ['Retry-After', '1.5'],
    ['Retry-After', '2026-01-01T00:00:00Z'],
  ])('reads no %s: %s, and backs off as usual', async (header, value) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    failFirst(1, 503, { [header]: value });
    const done = CALLS['POST (ingestion)'](client({ retryDelayMs: 200 }));
    const waited = await timeUntilRequests(2, 10);
    await done;
    expect(waited).toBe(200);
  });

  it('retries at once for a Retry-After date already past', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    failFirst(1, 429, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' });
    const done = CALLS.GET(client({ retryDelayMs: 5_000 }));
    const waited = await timeUntilRequests(2, 10);
    await done;
    expect(waited).toBeLessThanOrEqual(10);
  });

  it('backs off exponentially, with jitter, without Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(Math, 'random').mockReturnValue(1); // the top of the jitter range
    failFirst(3, 503);
    const done = CALLS.GET(client({ retryDelayMs: 1_000, maxRetries: 3 }));
    const first = await timeUntilRequests(2, 10);
    const second = await timeUntilRequests(3, 10);
    const third = await timeUntilRequests(4, 10);
    await done;
    expect([first, second, third]).toEqual([1_000, 2_000, 4_000]);
  });

  it('spreads retries with jitter: between half and all of the backoff', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(Math, 'random').mockReturnValue(0); // the bottom of the jitter range
    failFirst(1, 503);
    const done = CALLS.GET(client({ retryDelayMs: 1_000 }));
    const waited = await timeUntilRequests(2, 10);
    await done;
    expect(waited).toBe(500);
  });
});

describe('per-attempt time-out', () => {
  it('abandons a slow attempt and retries it', async () => {
    service.answer(async (_request, index) => {
      if (index === 0) await delay(1_000);
      return HttpResponse.json({ users: [] });
    });
    await expect(CALLS.GET(client({ timeoutMs: 100 }))).resolves.toEqual({ users: [] });
    expect(service.requests).toHaveLength(2);
  });

  it('applies the time-out to each attempt, not to all of them together', async () => {
    // Three attempts of 60 ms each take longer than one time-out of 100 ms, and succeed.
    service.answer(async (_request, index) => {
      await delay(60);
      return index < 2
        ? HttpResponse.json({ detail: 'busy' }, { status: 503 })
        : HttpResponse.json({ users: [] });
    });
    await expect(CALLS.GET(client({ timeoutMs: 100 }))).resolves.toEqual({ users: [] });
    expect(service.requests).toHaveLength(3);
  });

  it('rejects with TimeoutError when every attempt times out', async () => {
    service.answer(async () => {
      await delay(1_000);
      return HttpResponse.json({ users: [] });
    });
    const error = await CALLS['POST (ingestion)'](client({ timeoutMs: 50, maxRetries: 1 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(
      'POST /event-ingestion/api/v2/events/trace_conversation got no answer within 50 ms (2 attempts)',
    );
    expect(service.requests).toHaveLength(2);
  });
});
