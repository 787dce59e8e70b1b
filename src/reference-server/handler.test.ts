import { describe, expect, it, vi } from 'vitest';
import { createReferenceHandler } from './handler.js';

const users = [{ end_user: 'u-1', tags: {}, active_from: '2026-01-01' }];

function post(url: string, apiKey: string, body: unknown): Request {
  return new Request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('createReferenceHandler (web-standard Request → Response)', () => {
  it('serves plain Request objects, with no server and no MSW', async () => {
    const reference = createReferenceHandler({ apiKeys: { k: 'p' } });
    const response = await reference.fetch(post('http://any.host/api/external/eligible-users', 'k', { users }));

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ users: [{ ...users[0], active_to: null }] });
    expect(reference.store.listUsers('p')).toHaveLength(1);
  });

  it('maxRecordedBytes bounds the bodies of the request log: the oldest are dropped and counted', async () => {
    const reference = createReferenceHandler({ apiKeys: { k: 'p' }, maxRecordedBytes: 150 });
    for (const endUser of ['u-1', 'u-2', 'u-3']) {
      await reference.fetch(post('http://h/api/external/eligible-users', 'k', { users: [{ ...users[0], end_user: endUser }] }));
    }
    expect(reference.requests.all().map((request) => request.bodyDropped)).toEqual([true, false, false]);
    expect(reference.requests.droppedBodies).toBe(1);
    expect(() => createReferenceHandler({ apiKeys: { k: 'p' }, maxRecordedBytes: 0 })).toThrow('`maxRecordedBytes` must be a whole number');
  });

  it('serves below basePath, and 404s outside it', async () => {
    const reference = createReferenceHandler({ apiKeys: { k: 'p' }, basePath: 'nebuly/' });
    const inside = await reference.fetch(post('http://h/nebuly/api/external/eligible-users', 'k', { users }));
    const outside = await reference.fetch(post('http://h/api/external/eligible-users', 'k', { users }));

    expect(inside.status).toBe(200);
    expect(outside.status).toBe(404);
  });

  it.each(['__proto__', 'toString', 'constructor', 'hasOwnProperty'])(
    'a key named like an Object property (%s) is not a key',
    async (key) => {
      const reference = createReferenceHandler({ apiKeys: { k: 'p' } });
      const response = await reference.fetch(post('http://h/api/external/eligible-users', key, { users }));
      expect(response.status).toBe(401);
    },
  );

  it('responds to a dropped-connection fault with Response.error()', async () => {
    const reference = createReferenceHandler({ apiKeys: { k: 'p' }, faults: [{ drop: true }] });
    const response = await reference.fetch(new Request('http://h/api/external/eligible-users'));
    expect(response.type).toBe('error');
  });

  it('passes each request responded to onRequest, without the API key', async () => {
    const seen: unknown[] = [];
    const reference = createReferenceHandler({ apiKeys: { 'secret-canary-key': 'p' }, onRequest: (r) => seen.push(r) });
    await reference.fetch(post('http://h/api/external/eligible-users', 'secret-canary-key', { users }));

    expect(seen).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/external/eligible-users', status: 200, project: 'p' }),
    ]);
    expect(JSON.stringify(seen)).not.toContain('secret-canary-key');
  });

  it('responds 422 naming the field, not 500, for message content nested 2,000 levels deep', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let deep: unknown = 'leaf';
    for (let level = 0; level < 2_000; level += 1) deep = { inner: deep };
    const time = '2026-03-01T10:00:00Z';
    const body = {
      interaction: { conversation_id: 'c', input: 'i', output: 'o', time_start: time, time_end: time, end_user: 'u' },
      traces: [{ model: 'm', messages: [{ role: 'user', content: [{ deep }] }], output: 'o' }],
    };
    const reference = createReferenceHandler({ apiKeys: { k: 'p' } });
    const response = await reference.fetch(post('http://h/event-ingestion/api/v3/events/trace_interaction', 'k', body));

    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(detail).toHaveLength(1);
    expect(detail[0]?.loc.slice(0, 8)).toEqual(['body', 'traces', 0, 'messages', 0, 'content', 0, 'deep']);
    expect(detail[0]?.msg).toBe('nests deeper than 100 levels');
    expect(reference.store.listInteractions('p')).toHaveLength(0);
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it.each([
    [{ apiKeys: {} }, 'apiKeys'],
    [{ apiKeys: { ' k': 'p' } }, 'surrounding spaces'],
    [{ apiKeys: { k: '' } }, 'project'],
    [{ apiKeys: { k: 'p' }, bodyLimitBytes: 0 }, 'bodyLimitBytes'],
    [{ apiKeys: { k: 'p' }, maxRecordedRequests: 1.5 }, 'maxRecordedRequests'],
  ])('rejects bad options %j with a TypeError naming them', (options, words) => {
    expect(() => createReferenceHandler(options)).toThrow(words);
  });
});
