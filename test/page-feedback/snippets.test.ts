/**
 * The snippets of docs/recorder.md, "Feedback from the page", run as written: the client
 * module, the chat route that mints, the feedback route of Next.js (its exported
 * functions called with web Requests, as Next calls them), Hono (its router, through
 * `app.request`), a Worker (bundled and served by workerd, the Workers runtime) and the
 * Node adapter for Express (on a node:http server over real sockets: Express is not
 * installed here; its `req` and `res` are these same Node objects).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NebulyClient } from '../../src/index.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { docSnippet, type SnippetProject, writeProject } from '../helpers/doc-snippets.js';
import { bundle, serveWorker } from '../helpers/workerd.js';
import { CONVERSATIONS, SECRET } from './setup.js';

const GUIDE = 'docs/recorder.md';
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const PAGE = 'https://app.example.com';

let reference: ReferenceServer;
let project: SnippetProject;
let nebuly: NebulyClient;
let chat: (request: Request) => Promise<Response>;
let adapterServer: Server;
let adapterUrl: string;

beforeAll(async () => {
  reference = await createReferenceServer({ apiKeys: { 'doc-key': 'project' }, port: 0 });
  vi.stubEnv('NEBULY_API_KEY', 'doc-key');
  vi.stubEnv('NEBULY_BASE_URL', reference.url);
  vi.stubEnv('NEBULY_FEEDBACK_SECRET', SECRET);
  project = writeProject({
    'lib/nebuly.ts': docSnippet(GUIDE, '// lib/nebuly.ts'),
    'app/api/chat/route.ts': docSnippet(GUIDE, '// app/api/chat/route.ts'),
    'app/api/feedback/route.ts': docSnippet(GUIDE, '// app/api/feedback/route.ts (Next.js)'),
    'server.ts': docSnippet(GUIDE, '// server.ts (Hono)'),
    'feedback-route.ts': docSnippet(GUIDE, '// feedback-route.ts (Express'),
  });
  ({ nebuly } = await project.load<{ nebuly: NebulyClient }>('lib/nebuly.ts'));
  ({ POST: chat } = await project.load<{ POST: typeof chat }>('app/api/chat/route.ts'));
  const { feedbackRoute } = await project.load<{ feedbackRoute: (req: IncomingMessage, res: ServerResponse) => Promise<void> }>('feedback-route.ts');
  adapterServer = createServer((req, res) => void feedbackRoute(req, res));
  await new Promise<void>((resolve) => adapterServer.listen(0, '127.0.0.1', resolve));
  adapterUrl = `http://127.0.0.1:${(adapterServer.address() as AddressInfo).port}/api/feedback`;
}, 60_000);

afterAll(async () => {
  await nebuly?.shutdown({ timeoutMs: 1_000 });
  await new Promise((resolve) => adapterServer?.close(resolve));
  await reference?.close();
  project?.remove();
});

/** The chat route of the guide, asked one message: its answer and token. */
async function ask(chatId: string, message: string): Promise<{ answer: string; feedbackToken: string }> {
  const response = await chat(new Request('http://app.test/api/chat', { method: 'POST', body: JSON.stringify({ chatId, userId: 'user-1', message }) }));
  return (await response.json()) as { answer: string; feedbackToken: string };
}

function feedback(url: string, body: object, init: RequestInit = {}): Request {
  return new Request(url, { method: 'POST', headers: { origin: PAGE, 'content-type': 'application/json' }, body: JSON.stringify(body), ...init });
}

describe('docs/recorder.md, "Feedback from the page"', () => {
  it('the chat route mints, and each mounted handler records: Next.js, Hono, the Node adapter; sent with the conversation', async () => {
    const { answer, feedbackToken: token } = await ask('doc-chat', 'Hi');
    expect(answer).toBe('You said: Hi');

    const next = await project.load<{ POST: (request: Request) => Promise<Response>; OPTIONS: (request: Request) => Promise<Response> }>('app/api/feedback/route.ts');
    const preflight = await next.OPTIONS(new Request('http://app.test/api/feedback', { method: 'OPTIONS', headers: { origin: PAGE } }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect((await next.POST(feedback('http://app.test/api/feedback', { token, slug: 'thumbs_up' }))).status).toBe(204);

    const { app } = await project.load<{ app: Hono }>('server.ts');
    const viaHono = await app.request('/api/feedback', { method: 'POST', headers: { origin: PAGE }, body: JSON.stringify({ token, slug: 'comment', text: 'clear' }) });
    expect(viaHono.status).toBe(204);
    expect(viaHono.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect((await app.request('/api/feedback', { method: 'OPTIONS', headers: { origin: 'https://other.example' } })).headers.get('access-control-allow-origin')).toBeNull();

    // The Node adapter over real sockets: accepted, refused methods, a body too large.
    const viaNode = await fetch(adapterUrl, { method: 'POST', headers: { origin: PAGE }, body: JSON.stringify({ token, slug: 'rating', value: 5 }) });
    expect(viaNode.status).toBe(204);
    expect(viaNode.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect((await fetch(adapterUrl)).status).toBe(405);
    const huge = await fetch(adapterUrl, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(huge.status).toBe(413);
    const forged = await fetch(adapterUrl, { method: 'POST', body: JSON.stringify({ token: `${token.slice(0, -4)}AAAA`, slug: 'thumbs_down' }) });
    expect(forged.status).toBe(401);

    await nebuly.conversation({ conversation_id: 'doc-chat', end_user: 'user-1' }).end();
    const sent = reference.requests.all({ path: CONVERSATIONS }).map((request) => JSON.parse(request.body) as { conversation: { interactions: { feedback_actions: unknown[] }[] } });
    expect(sent.map((body) => body.conversation.interactions.map((interaction) => interaction.feedback_actions))).toEqual([
      [[{ slug: 'thumbs_up' }, { slug: 'comment', text: 'clear' }, { slug: 'rating', value: 5 }]],
    ]);
  });

  it('the Worker: served by workerd, it verifies a token minted by Node with the same secret (Web Crypto there too)', async () => {
    const { feedbackToken: token } = await ask('doc-worker-chat', 'Hello');
    const worker = docSnippet(GUIDE, '// worker.ts (Cloudflare Workers');
    // The guide's worker, given its secrets as wrangler would give them in `env`.
    const entry = `${worker.replace('export default {', 'const worker = {')}
export default { fetch: (request, _env, ctx) => worker.fetch(request, ${JSON.stringify({ NEBULY_API_KEY: 'doc-key', NEBULY_FEEDBACK_SECRET: SECRET })}, ctx) };`;
    const { code, imports } = await bundle(entry.replace("from 'nebuly-client'", `from ${JSON.stringify(`${SRC}index.ts`)}`), SRC);
    expect(imports).toEqual([]);
    const served = await serveWorker(code, { compatibilityDate: '2025-09-15' });
    try {
      const url = `${served.baseUrl}/api/feedback`;
      const accepted = await fetch(feedback(url, { token, slug: 'thumbs_up' }, { headers: { 'content-type': 'application/json' } }));
      expect(accepted.status).toBe(204);
      expect((await fetch(feedback(url, { token: `${token.slice(0, -4)}AAAA`, slug: 'thumbs_up' }, { headers: {} }))).status).toBe(401);
      expect((await fetch(url)).status).toBe(405);
      expect((await fetch(`${served.baseUrl}/elsewhere`)).status).toBe(404);
    } finally {
      served.stop();
    }
  });
});
