import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient } from '../index.js';
import { createHandlers } from './msw.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const user = { end_user: 'u-1', tags: {}, active_from: '2026-01-01' };

function client(options: { region?: 'us' | 'eu'; baseUrl?: string }) {
  return new NebulyClient({ apiKey: 'k', maxRetries: 0, onError: () => undefined, ...options });
}

describe('createHandlers (MSW)', () => {
  it('responds for both regions by default, from one store', async () => {
    const reference = createHandlers({ apiKeys: { k: 'p' } });
    server.use(...reference.handlers);

    await client({ region: 'eu' }).eligibleUsers.insert({ users: [user] });
    await expect(client({ region: 'us' }).platformUsers.list()).resolves.toEqual({ users: [{ ...user, active_to: null }] });
    expect(reference.store.listUsers('p')).toHaveLength(1);
  });

  it('responds under a base URL with a path, and leaves other hosts alone', async () => {
    const reference = createHandlers({ apiKeys: { k: 'p' }, baseUrl: 'https://proxy.test/nebuly/' });
    // Anything the reference does not take falls through to this teapot.
    server.use(...reference.handlers, http.all('*', () => HttpResponse.json({}, { status: 418 })));

    await expect(client({ baseUrl: 'https://proxy.test/nebuly' }).eligibleUsers.list()).resolves.toEqual({ users: [] });
    expect(reference.requests.last()?.path).toBe('/api/external/eligible-users');
    await expect(client({ region: 'us' }).eligibleUsers.list()).rejects.toMatchObject({ status: 418 });
    await expect(client({ baseUrl: 'https://proxy.test/other' }).eligibleUsers.list()).rejects.toMatchObject({ status: 418 });
  });

  it('responds 413 to a plain fetch of a body over the limit', async () => {
    // fetch(url, init) reaches the handler as a tee branch of the body: cancelling it
    // settles only with the other branch, so the 413 must not wait for that.
    const reference = createHandlers({ apiKeys: { k: 'p' }, bodyLimitBytes: 1024 });
    server.use(...reference.handlers);
    const response = await fetch('https://backend.nebuly.com/api/external/eligible-users', {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ users: [{ ...user, tags: { note: 'x'.repeat(200_000) } }] }),
    });
    expect(response.status).toBe(413);
    expect(reference.store.listUsers('p')).toEqual([]);
  });

  it('rejects a base URL that is not a URL', () => {
    expect(() => createHandlers({ apiKeys: { k: 'p' }, baseUrl: 'backend.nebuly.com' })).toThrow(TypeError);
  });
});
