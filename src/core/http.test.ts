import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLocalServer } from '../../test/helpers/local-server.js';
import { resolveClientOptions } from './resolve-options.js';

afterEach(() => {
  vi.doUnmock('./typed-call.js');
  vi.doUnmock('./http-engine.js');
  vi.resetModules();
});

describe('HttpCore.call', () => {
  it('rejects bad request options before it loads the engine or the typed call', async () => {
    const loaded: string[] = [];
    vi.doMock('./typed-call.js', () => {
      loaded.push('typed-call');
      throw new Error('not to be loaded');
    });
    vi.doMock('./http-engine.js', () => {
      loaded.push('http-engine');
      throw new Error('not to be loaded');
    });
    const { HttpCore } = await import('./http.js');
    const http = new HttpCore(resolveClientOptions({ apiKey: 'the-key' }));
    await expect(http.call('listEligibleUsers', undefined, { timeoutMs: -1 })).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/^Invalid request options: timeoutMs must be/),
    });
    await expect(http.call('deleteEligibleUsers', { users: ['u-1'] }, { retries: 1 } as never)).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('retries is not a request option; did you mean `maxRetries`?'),
    });
    expect(loaded).toEqual([]);
  });
});

describe('HttpCore.deliver', () => {
  it('resolves with the status and the body as sent, a character split between two chunks whole', async () => {
    const server = await startLocalServer((_request, res) => {
      const body = Buffer.from(JSON.stringify({ status: 'accepted', note: 'reçu ✓' }));
      res.writeHead(202, { 'content-type': 'application/json', 'content-length': String(body.byteLength) });
      // Cut inside the three bytes of ✓: the body is decoded once it is whole.
      const cut = body.indexOf(0xe2) + 1;
      res.write(body.subarray(0, cut));
      setTimeout(() => res.end(body.subarray(cut)), 20);
    });
    try {
      const { HttpCore } = await import('./http.js');
      const http = new HttpCore(resolveClientOptions({ apiKey: 'the-key', baseUrl: server.baseUrl }));
      const response = await http.deliver({ path: '/ingest', body: '{"a":1}', idempotencyKey: 'key-1' });
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ status: 'accepted', note: 'reçu ✓' });
      expect(response.body).toBe(response.body);
      expect(server.requests[0]?.headers['idempotency-key']).toBe('key-1');
    } finally {
      await server.close();
    }
  });
});
