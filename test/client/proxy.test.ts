import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, NebulyClient } from '../../src/index.js';
import { rejection } from '../helpers/caught.js';
import { json, startLocalServer, type LocalServer } from '../helpers/local-server.js';

// HTTP_PROXY, HTTPS_PROXY and NO_PROXY on Node, for the typed client and the recorder
// alike, with a real forward proxy on loopback. HTTPS tunnelling needs certificates to
// go all the way; what is checked is the CONNECT the proxy receives.

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

interface Proxy {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A forward proxy: plain HTTP requests in absolute form are forwarded; CONNECT is refused with 403. */
async function startProxy(): Promise<Proxy> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const { 'proxy-authorization': _credentials, ...headers } = req.headers;
    const upstream = forward(req.url ?? '', { method: req.method, headers: { ...headers, 'x-via-proxy': '1' } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, socket) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

let proxy: Proxy | undefined;
let target: LocalServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await proxy?.close();
  await target?.close();
  proxy = undefined;
  target = undefined;
});

async function setUp(env: (proxyUrl: string, targetUrl: string) => Record<string, string>) {
  proxy = await startProxy();
  target = await startLocalServer((_request, res) => json(res, 202, { users: [] }));
  for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']) vi.stubEnv(name, '');
  for (const [name, value] of Object.entries(env(proxy.url, target.baseUrl))) vi.stubEnv(name, value);
  return { proxy, target };
}

async function sendBoth(baseUrl: string) {
  const errors: unknown[] = [];
  const nebuly = new NebulyClient({ apiKey: 'k-123456', baseUrl, maxRetries: 0, onError: (error) => errors.push(error) });
  await nebuly.eligibleUsers.list();
  nebuly.startConversation({ end_user: 'u' }).interaction({ input: 'hi' }).end({ output: 'hello' });
  await nebuly.shutdown();
  expect(errors).toEqual([]);
}

describe('proxies on Node', () => {
  it('sends the typed client and the recorder through HTTP_PROXY, in absolute form', async () => {
    const { proxy, target } = await setUp((proxyUrl) => ({ HTTP_PROXY: proxyUrl }));
    await sendBoth(target.baseUrl);
    expect(proxy.seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      `GET ${target.baseUrl}/api/external/eligible-users`,
      `POST ${target.baseUrl}/event-ingestion/api/v2/events/trace_conversation`,
    ]);
    expect(target.requests.map((request) => request.headers['x-via-proxy'])).toEqual(['1', '1']);
    expect(target.requests[1]?.headers['idempotency-key']).toBeDefined();
    // The target's authority as Host, not the proxy's, and the body's length.
    const host = new URL(target.baseUrl).host;
    expect(proxy.seen.map(({ headers }) => headers.host)).toEqual([host, host]);
    expect(Number(proxy.seen[1]?.headers['content-length'])).toBe(Buffer.byteLength(target.requests[1]?.body ?? ''));
  });

  it('sends the proxy URL credentials as Proxy-Authorization', async () => {
    const { proxy, target } = await setUp((proxyUrl) => ({ http_proxy: proxyUrl.replace('http://', 'http://ops:s%3Acret@') }));
    await sendBoth(target.baseUrl);
    expect(proxy.seen[0]?.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('ops:s:cret').toString('base64')}`);
    expect(target.requests[0]?.headers['proxy-authorization']).toBeUndefined();
  });

  it('goes directly to a host NO_PROXY names', async () => {
    const { proxy, target } = await setUp((proxyUrl) => ({ HTTP_PROXY: proxyUrl, NO_PROXY: 'example.com,127.0.0.1' }));
    await sendBoth(target.baseUrl);
    expect(proxy.seen).toEqual([]);
    expect(target.requests).toHaveLength(2);
  });

  it('opens an HTTPS tunnel with CONNECT host:port, and says when the proxy refuses it', async () => {
    const { proxy } = await setUp((proxyUrl) => ({ HTTPS_PROXY: proxyUrl }));
    const nebuly = new NebulyClient({ apiKey: 'k-123456', baseUrl: 'https://backend.nebuly.com', maxRetries: 1, retryDelayMs: 1 });
    const error = await rejection(nebuly.eligibleUsers.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('the proxy answered CONNECT backend.nebuly.com:443 with 403');
    expect(proxy.seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'CONNECT backend.nebuly.com:443',
      'CONNECT backend.nebuly.com:443',
    ]);
    // The tunnel's request carries no API key: only the target sees it, over TLS.
    expect(proxy.seen[0]?.headers.authorization).toBeUndefined();
  });
});
