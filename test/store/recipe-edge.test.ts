/**
 * docs/deploy-edge.md's Worker with Upstash Redis, run as Cloudflare runs it: bundled as
 * a worker bundler does, served by workerd (the Workers runtime), its store a real
 * redis-server behind a front that speaks Upstash's REST protocol, sending to the
 * reference server. Each request makes its own client, as the recipe says; the test
 * plays the Cron Trigger.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { recipeBlock } from '../helpers/doc-recipes.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { startUpstashFront, type UpstashFront } from '../helpers/upstash-front.js';
import { bundle, type RunningWorker, serveWorker } from '../helpers/workerd.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
const TOKEN = 'edge-recipe-token';
const CHATS = 10;
const TURNS = 3;
/** The idle time-out the test gives the recipe instead of its default (15 minutes), so that its cron has work now. */
const IDLE_MS = 1_000;

/**
 * The guide's Worker, its imports pointed at the sources, its model a stand-in, its idle
 * time-out shortened; wrapped so that `POST /__scheduled` runs its `scheduled` handler,
 * as `wrangler dev --test-scheduled` offers (workerd alone has no cron).
 */
function workerSource(): string {
  const recipe = recipeBlock("import { Redis } from '@upstash/redis/cloudflare';")
    .replace("from 'nebuly-client'", `from ${JSON.stringify(`${SRC}index.ts`)}`)
    .replace("from 'nebuly-client/redis'", `from ${JSON.stringify(`${SRC}redis/index.ts`)}`)
    .replace('sweepIntervalMs: 0 }', `sweepIntervalMs: 0, idleTimeoutMs: ${IDLE_MS} }`)
    .replace('export default {', 'const worker = {');
  if (!recipe.includes(`idleTimeoutMs: ${IDLE_MS}`)) throw new Error('the recipe no longer sets sweepIntervalMs: 0 where the test shortens its idle time-out');
  return `${recipe}
async function answerWithYourModel(message: string): Promise<string> {
  return \`answer to \${message}\`;
}
export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    if (new URL(request.url).pathname !== '/__scheduled') return worker.fetch(request, env, ctx);
    return worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() } as ScheduledController, env, ctx).then(() => new Response('ran'));
  },
};
`;
}

let redis: RedisServer;
let front: UpstashFront;
let reference: ReferenceServer;
let worker: RunningWorker;
/** How much workerd had written to stderr before the test: its start-up probe, a GET the recipe cannot read. */
let startup = 0;

beforeAll(async () => {
  redis = await startRedisServer({ own: true });
  front = await startUpstashFront(redis.url, TOKEN);
  reference = await createReferenceServer({ apiKeys: { 'edge-key': 'edge' } });
  const { code, imports } = await bundle(workerSource(), SRC);
  expect(imports).toEqual([]);
  worker = await serveWorker(code, {
    compatibilityDate: '2025-09-15',
    // nodejs_compat gives `process.env` the vars: NEBULY_BASE_URL points the client at the reference server.
    flags: ['nodejs_compat'],
    vars: { NEBULY_API_KEY: 'edge-key', NEBULY_BASE_URL: reference.url, UPSTASH_REDIS_REST_URL: front.url, UPSTASH_REDIS_REST_TOKEN: TOKEN, UPSTASH_DISABLE_TELEMETRY: '1' },
    loopback: true,
  });
  reference.requests.clear();
  startup = worker.stderr().length;
}, 60_000);

afterAll(async () => {
  worker?.stop();
  await reference?.close();
  await front?.close();
  await redis?.stop();
});

const inputsOf = (body: string) => (JSON.parse(body) as { conversation: { interactions: { input: string }[] } }).conversation.interactions.map((i) => i.input);

describe('docs/deploy-edge.md, the Worker with Upstash Redis, on workerd', () => {
  it(`stores the turns of ${CHATS} chats over HTTP, each request its own client, and the cron sends each chat whole, once`, async () => {
    for (let turn = 1; turn <= TURNS; turn += 1) {
      await Promise.all(
        Array.from({ length: CHATS }, async (_, chat) => {
          const message = `chat-${chat} turn ${turn}`;
          const response = await fetch(worker.baseUrl, { method: 'POST', body: JSON.stringify({ chatId: `chat-${chat}`, userId: `user-${chat}`, message }) });
          expect(await response.json()).toEqual({ answer: `answer to ${message}`, interactionId: expect.any(String) });
        }),
      );
    }
    // Each turn reached Redis through the front (its waitUntil: one script a turn), none reached the service yet.
    const scripts = () => (front.commands.get('EVALSHA') ?? 0) + (front.commands.get('EVAL') ?? 0);
    await expect.poll(scripts).toBe(CHATS * TURNS);
    expect(reference.requests.all({ path: CONVERSATIONS })).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 200));
    expect((await fetch(`${worker.baseUrl}/__scheduled`, { method: 'POST' })).status).toBe(200);
    await expect.poll(() => reference.requests.all({ path: CONVERSATIONS }).length).toBe(CHATS);

    const sent = reference.requests.all({ path: CONVERSATIONS }).map((request) => inputsOf(request.body));
    const expected = Array.from({ length: CHATS }, (_, chat) => Array.from({ length: TURNS }, (_, turn) => `chat-${chat} turn ${turn + 1}`));
    expect(sent.sort((a, b) => Number(a[0]!.split(/[- ]/)[1]) - Number(b[0]!.split(/[- ]/)[1]))).toEqual(expected);
    // A second cron finds nothing left: sent once, and removed from the store.
    await fetch(`${worker.baseUrl}/__scheduled`, { method: 'POST' });
    expect(reference.requests.all({ path: CONVERSATIONS })).toHaveLength(CHATS);
    expect(worker.stderr().slice(startup)).toBe('');
  }, 60_000);
});
