import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, APIError, ConnectionError, InternalServerError, RedirectError, TimeoutError } from '../../../src/index.js';
import { rejection } from '../../helpers/caught.js';
import { json, startLocalServer, type LocalHandler, type LocalServer } from '../../helpers/local-server.js';
import { core, MATRIX, PATHS } from './harness.js';

// One contract, every transport: what the typed client and the recorder's deliveries
// promise about retries, time-outs, aborts, idempotency keys and redirects holds on ky
// over fetch, on node:http and on a fetch of the user's alike.

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: LocalHandler): Promise<LocalServer> {
  const server = await startLocalServer(handler);
  servers.push(server);
  return server;
}

const keys = (server: LocalServer) => server.requests.map((request) => request.headers['idempotency-key']);

describe.each(MATRIX)('%s', (_name, transport, path) => {
  const send = PATHS[path];

  it('retries a 503 with the same Idempotency-Key and the same bytes', async () => {
    const server = await serve((_request, res, index) => (index < 2 ? json(res, 503, { detail: 'busy' }) : json(res, 202, {})));
    await expect(send(core(transport, server.baseUrl))).resolves.toMatchObject({ status: 202 });
    expect(server.requests).toHaveLength(3);
    expect(keys(server)[0]).toMatch(/^[\x21-\x7e]{8,}$/);
    expect(new Set(keys(server)).size).toBe(1);
    expect(new Set(server.requests.map((request) => request.body)).size).toBe(1);
  });

  it('keeps the key when the server stored the body but answered after the time-out', async () => {
    const server = await serve((_request, res, index) => {
      if (index === 0) setTimeout(() => json(res, 202, {}), 300).unref();
      else json(res, 202, {});
    });
    await expect(send(core(transport, server.baseUrl, { timeoutMs: 100 }))).resolves.toMatchObject({ status: 202 });
    expect(server.requests).toHaveLength(2);
    expect(new Set(keys(server)).size).toBe(1);
  });

  it('keeps the key when the connection was reset after the body was read', async () => {
    const server = await serve((_request, res, index) => (index === 0 ? res.socket?.destroy() : json(res, 202, {})));
    await expect(send(core(transport, server.baseUrl))).resolves.toMatchObject({ status: 202 });
    expect(server.requests).toHaveLength(2);
    expect(new Set(keys(server)).size).toBe(1);
  });

  it('gives two calls two keys', async () => {
    const server = await serve((_request, res) => json(res, 202, {}));
    const http = core(transport, server.baseUrl);
    await send(http);
    await send(http);
    expect(new Set(keys(server)).size).toBe(2);
  });

  it('honours Retry-After over the backoff', async () => {
    // With a backoff of 60 s the test would time out; a past HTTP date means "now".
    const server = await serve((_request, res, index) =>
      index === 0 ? json(res, 429, {}, { 'retry-after': 'Thu, 01 Jan 2015 00:00:00 GMT' }) : json(res, 202, {}),
    );
    await expect(send(core(transport, server.baseUrl, { retryDelayMs: 60_000 }))).resolves.toMatchObject({ status: 202 });
    expect(server.requests).toHaveLength(2);
  });

  it('times out an attempt whose body stalls, and says how long it waited', async () => {
    const server = await serve((_request, res) => {
      res.writeHead(202, { 'content-type': 'application/json', 'content-length': '100' }).write('{"ok":');
    });
    const error = await rejection(send(core(transport, server.baseUrl, { timeoutMs: 100, maxRetries: 1 })));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('no answer within 100 ms (2 attempts)');
  });

  it('rejects with AbortError when the signal aborts an attempt in flight', async () => {
    const controller = new AbortController();
    const server = await serve(() => controller.abort());
    const error = await rejection(send(core(transport, server.baseUrl), { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a refused connection, then says why', async () => {
    const server = await serve(() => undefined);
    await server.close();
    const error = await rejection(send(core(transport, server.baseUrl, { maxRetries: 1 })));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/failed after 2 attempts: .*ECONNREFUSED/);
  });

  it('does not retry a host that does not resolve, and names it', async () => {
    // RFC 6761: no name under .invalid ever resolves, so the lookup fails for real, at once.
    const attempts: string[] = [];
    const logger = { error: () => {}, warn: () => {}, info: () => {}, debug: (message: string) => attempts.push(message) };
    const http = core(transport, 'http://nebuly-sdk-test.invalid:8787', { maxRetries: 4, logLevel: 'debug', logger });
    const error = await rejection(send(http));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ attempts: 1 });
    expect((error as Error).message).toBe(
      'POST /event-ingestion/api/v2/events/trace_conversation failed: the host nebuly-sdk-test.invalid does not resolve (DNS: ENOTFOUND); check the base URL',
    );
    expect(attempts).toHaveLength(1);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('test-key-123456');
  });

  it('gives up after maxRetries with the last answer', async () => {
    const server = await serve((_request, res) => json(res, 500, { detail: 'down' }, { 'x-request-id': 'req-42' }));
    const error = await rejection(send(core(transport, server.baseUrl, { maxRetries: 2 })));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ attempts: 3, requestId: 'req-42' });
    expect((error as Error).message).toBe(
      'POST /event-ingestion/api/v2/events/trace_conversation answered 500 after 3 attempts (request id req-42): down',
    );
  });

  describe('redirects', () => {
    it.each([301, 302, 303, 307, 308])('never follows a %i to another origin, nor turns the POST into a GET', async (status) => {
      const elsewhere = await serve((_request, res) => json(res, 200, {}));
      const server = await serve((_request, res) => {
        res.writeHead(status, { location: `${elsewhere.baseUrl}/moved/here?api_key=test-key-123456#x` }).end();
      });
      const error = await rejection(send(core(transport, server.baseUrl)));
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toMatchObject({ status, location: `${elsewhere.baseUrl}/moved/here` });
      expect((error as Error).message).toContain(`answered ${status}`);
      expect((error as Error).message).toContain(`a redirect to ${elsewhere.baseUrl}/moved/here; redirects are not followed`);
      expect((error as Error).message).not.toContain('api_key');
      expect(elsewhere.requests).toHaveLength(0);
      expect(server.requests.map((request) => request.method)).toEqual(['POST']);
    });

    it('never follows a same-origin 308 either: a redirect means a wrong base URL', async () => {
      const server = await serve((request, res) =>
        request.url.startsWith('/v2') ? json(res, 202, {}) : res.writeHead(308, { location: `/v2${request.url}` }).end(),
      );
      const error = await rejection(send(core(transport, server.baseUrl)));
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toBeInstanceOf(APIError);
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe('a fetch of the user that follows redirects anyway', () => {
  it('gets a RedirectError saying so, not the success of the GET it turned the POST into', async () => {
    const server = await serve((request, res) =>
      request.url.startsWith('/v2') ? json(res, 200, {}) : res.writeHead(302, { location: `/v2${request.url}` }).end(),
    );
    const following = (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, { ...init, redirect: 'follow' });
    for (const path of Object.values(PATHS)) {
      const error = await rejection(path(core('custom fetch', server.baseUrl, { fetch: following })));
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as Error).message).toContain('which the `fetch` given to the client followed');
    }
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET', 'POST', 'GET']);
  });
});
