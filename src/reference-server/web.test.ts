import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle, serveWorker, type RunningWorker } from '../../test/helpers/workerd.js';
import { NebulyClient } from '../index.js';

const WEB_ENTRY = fileURLToPath(new URL('./web.ts', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));

describe('nebuly-client/reference-server/web', () => {
  it('bundles for a browser with no node: import left', async () => {
    const { code, inputs, imports } = await bundle(`export * from ${JSON.stringify(WEB_ENTRY)};`, HERE, 'browser');
    expect(imports).toEqual([]);
    expect(inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(/from\s*["']node:/);
    expect(code).toContain('createReferenceHandler');
  });

  it('is what the Node entry exports, less the Node server', async () => {
    const web = await import('./web.js');
    const node = await import('./index.js');
    expect(Object.keys(node).sort()).toEqual([...Object.keys(web), 'createReferenceServer'].sort());
  });
});

describe('createReferenceHandler on workerd (the Cloudflare Workers runtime)', () => {
  let worker: RunningWorker;
  let baseUrl: string;

  beforeAll(async () => {
    const { code } = await bundle(
      `import { createReferenceHandler } from ${JSON.stringify(WEB_ENTRY)};
       const reference = createReferenceHandler({ apiKeys: { 'worker-key': 'worker-project' } });
       export default { fetch: (request) => reference.fetch(request) };`,
      HERE,
    );
    worker = await serveWorker(code, { compatibilityDate: '2025-01-01' });
    baseUrl = worker.baseUrl;
  }, 30_000);

  afterAll(() => worker?.stop());

  it('serves the client: users stored, a conversation accepted, the key checked, validation errors in FastAPI shape', async () => {
    const nebuly = new NebulyClient({ apiKey: 'worker-key', baseUrl, maxRetries: 0 });
    const inserted = await nebuly.eligibleUsers.insert({
      users: [{ end_user: 'u-1', tags: { team: 'a' }, active_from: '2026-01-01' }],
    });
    expect(inserted.users.map((user) => user.end_user)).toEqual(['u-1']);
    expect((await nebuly.eligibleUsers.list()).users).toHaveLength(1);

    const sent = await nebuly.conversations.send({
      conversation: { end_user: 'u-1', interactions: [{ input: 'Hi', output: 'Hello', time_start: new Date(), time_end: new Date() }] },
    });
    expect(sent.status).toBe(202);

    const stranger = new NebulyClient({ apiKey: 'wrong-key', baseUrl, maxRetries: 0 });
    await expect(stranger.eligibleUsers.list()).rejects.toMatchObject({ status: 401 });

    const raw = await fetch(`${baseUrl}/api/external/eligible-users`, {
      method: 'PUT',
      headers: { authorization: 'Bearer worker-key', 'content-type': 'application/json' },
      body: JSON.stringify({ users: [{ end_user: 'u-1' }] }),
    });
    expect(raw.status).toBe(422);
    expect(await raw.json()).toMatchObject({ detail: expect.arrayContaining([expect.objectContaining({ loc: ['body', 'users', 0, 'tags'] })]) });
  });
});
