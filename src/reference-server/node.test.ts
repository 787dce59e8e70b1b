import { request as httpRequest, Agent, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from './node.js';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Received {
  status: number;
  reusedSocket: boolean;
  body: string;
}

function send(agent: Agent, url: string, method: string, body?: Buffer): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, method, headers: { authorization: 'Bearer k' } }, (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('createReferenceServer (node:http)', () => {
  it('responds 405 to TRACE, CONNECT-like and unknown methods with Allow, never a stack trace, and records them', async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      server = await createReferenceServer({ apiKeys: { k: 'p' } });
      const agent = new Agent({ keepAlive: false });
      for (const [method, path] of [['TRACE', '/api/external/eligible-users'], ['TRACE', '/nowhere'], ['PATCH', '/nowhere']] as const) {
        const response = await send(agent, `${server.url}${path}`, method);
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(JSON.parse(response.body)).toEqual({ detail: 'Method Not Allowed' });
      }
      expect(server.requests.all().map((request) => `${request.method} ${request.status}`)).toEqual(['TRACE 405', 'TRACE 405', 'PATCH 405']);
      expect(errors).toEqual([]);
    } finally {
      console.error = original;
    }
  });

  it('listens on loopback, on a free port when asked for port 0', async () => {
    server = await createReferenceServer({ apiKeys: { k: 'p' } });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('responds 413 without reading a declared-too-large body, and the connection serves the next request', async () => {
    server = await createReferenceServer({ apiKeys: { k: 'p' }, bodyLimitBytes: 1024 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = `${server.url}/api/external/eligible-users`;

    const first = await send(agent, url, 'POST', Buffer.alloc(256 * 1024, 0x20));
    const second = await send(agent, url, 'GET');
    agent.destroy();

    expect(first.status).toBe(413);
    expect(second).toMatchObject({ status: 200, reusedSocket: true, body: '{"users":[]}' });
  });

  it('close() cuts a request held by a delay at once, is idempotent, and frees the port', async () => {
    server = await createReferenceServer({ apiKeys: { k: 'p' }, faults: [{ delayMs: 10_000 }] });
    const held = fetch(`${server.url}/api/external/eligible-users`).catch((error: unknown) => error);
    await expect.poll(() => server?.faults.pending.length).toBe(0);

    await Promise.all([server.close(), server.close()]);
    // Cut, not answered when its 10 s delay ended: the fetch fails (no clock needed).
    expect(await held).toBeInstanceOf(TypeError);
    await expect(fetch(`${server.url}/api/external/eligible-users`)).rejects.toThrow(TypeError);
  });

  it('rejects when the port is taken', async () => {
    server = await createReferenceServer({ apiKeys: { k: 'p' } });
    await expect(createReferenceServer({ apiKeys: { k: 'p' }, port: server.port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });
});

/** `GET /` with the `Host` header given (a rebound name, a loopback one) and no key. */
function getPage(url: string, host: string): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/`, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the page at /', () => {
  it('is served to this machine without a key, runs no script, names projects and never keys; not in the request log', async () => {
    server = await createReferenceServer({ apiKeys: { 'page-canary-key': 'page-project' } });
    const { port } = server;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const page = await getPage(server.url, host);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.body).toContain('<code>page-project</code>');
      expect(page.body).not.toContain('page-canary-key');
    }
    expect(server.requests.count()).toBe(0);
  });

  it('is refused to a request that names the server otherwise (DNS rebinding)', async () => {
    server = await createReferenceServer({ apiKeys: { k: 'p' } });
    const page = await getPage(server.url, `rebound.example:${server.port}`);
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('<html');
  });
});
