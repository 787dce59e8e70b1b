import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, NebulyClient, TimeoutError } from '../../src/index.js';

// The same behaviours as the MSW suites, over real sockets: what ky and undici do with a
// hung server, a dropped connection and a refused one is what users will meet.

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse, index: number) => void) {
  let index = 0;
  server = createServer((req, res) => handler(req, res, index++));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('over a real socket', () => {
  it('retries an attempt that hangs past timeoutMs, and the retry succeeds', async () => {
    const baseUrl = await listen((_req, res, index) => {
      if (index === 0) return; // never answers
      res.setHeader('content-type', 'application/json').end('{"users":[]}');
    });
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl, timeoutMs: 100, retryDelayMs: 1 });
    await expect(nebuly.eligibleUsers.list()).resolves.toEqual({ users: [] });
  });

  it('rejects with TimeoutError when the server never answers', async () => {
    let requests = 0;
    const baseUrl = await listen(() => {
      requests += 1;
    });
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl, timeoutMs: 50, maxRetries: 2, retryDelayMs: 1 });
    await expect(nebuly.conversations.send({ conversation: { end_user: 'u', interactions: [] } })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(requests).toBe(3);
  });

  it('retries a dropped connection', async () => {
    const baseUrl = await listen((req, res, index) => {
      if (index === 0) {
        req.socket.destroy();
        return;
      }
      res.statusCode = 202;
      res.end();
    });
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl, retryDelayMs: 1 });
    await expect(
      nebuly.conversations.send({ conversation: { end_user: 'u', interactions: [] } }),
    ).resolves.toEqual({ status: 202, body: null });
  });

  it('applies the time-out to the body too: a body that stalls is retried, then TimeoutError', async () => {
    let requests = 0;
    const baseUrl = await listen((_req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"users": ['); // and never the rest
    });
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl, timeoutMs: 150, maxRetries: 1, retryDelayMs: 1 });
    const error = await nebuly.eligibleUsers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(requests).toBe(2);
  });

  it('retries a stalled body and takes the next complete answer', async () => {
    const baseUrl = await listen((_req, res, index) => {
      res.writeHead(202, { 'content-type': 'application/json' });
      if (index === 0) res.write('{"status":');
      else res.end('{"status":"accepted"}');
    });
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl, timeoutMs: 150, retryDelayMs: 1 });
    await expect(
      nebuly.conversations.send({ conversation: { end_user: 'u', interactions: [] } }),
    ).resolves.toEqual({ status: 202, body: { status: 'accepted' } });
  });

  it('reports a connection dropped in the middle of the body as ConnectionError, after retrying it', async () => {
    let requests = 0;
    const baseUrl = await listen((req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"users": [');
      setTimeout(() => req.socket.destroy(), 10);
    });
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl, maxRetries: 2, retryDelayMs: 1 });
    const error = await nebuly.eligibleUsers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('after 3 attempts');
    expect(requests).toBe(3);
  });

  it('rejects with ConnectionError, saying why, when nothing listens', async () => {
    const baseUrl = await listen(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl, maxRetries: 1, retryDelayMs: 1 });
    const error = await nebuly.platformUsers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/failed after 2 attempts: .*ECONNREFUSED/);
  });
});
