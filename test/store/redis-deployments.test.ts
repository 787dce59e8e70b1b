import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NebulyClient } from '../../src/index.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { redisStore } from '../../src/redis/index.js';
import { recipeBlock, runRecipe } from '../helpers/doc-recipes.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';

// Every recipe of the deployment pages (docs/deployments.md and its page per shape,
// docs/deploy-*.md), run as written: its code block, imports left out and given here
// instead (the Next.js and Workers ones as the plain functions they are).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
const INTERACTIONS = '/event-ingestion/api/v3/events/trace_interaction';
const block = recipeBlock;

/** What the recipes export, by name (each block has some of them). */
interface RecipeModule {
  nebuly: NebulyClient;
  redis: { close(): Promise<unknown> };
  onMessage(chatId: string, userId: string, message: string): Promise<{ answer: string; interactionId: string }>;
  onFeedback(chatId: string, interactionId: string): Promise<void>;
  onChatClosed(chatId: string, userId: string): Promise<void>;
  POST(request: Request): Promise<Response>;
  GET(): Promise<Response>;
  __default: { fetch(request: Request, env: object, ctx: object): Promise<Response> };
}

const run = (code: string, scope: Record<string, unknown>) => runRecipe<RecipeModule>(code, scope);

const answerWithYourModel = async (message: string) => `answer to ${message}`;
const inputsOf = (body: string) => (JSON.parse(body) as { conversation: { interactions: { input: string }[] } }).conversation.interactions.map((i) => i.input);

let redis: RedisServer;
let reference: ReferenceServer;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  reference = await createReferenceServer({ apiKeys: { 'doc-key': 'docs' } });
});
afterAll(async () => {
  for (const close of closing.splice(0)) await close();
  await reference?.close();
  await redis?.stop();
});

/** The env the recipes read (`new NebulyClient()` without options, `process.env.REDIS_URL`). */
function env() {
  vi.stubEnv('NEBULY_API_KEY', 'doc-key');
  vi.stubEnv('NEBULY_BASE_URL', reference.url);
  vi.stubEnv('REDIS_URL', redis.url);
  reference.requests.clear();
}

describe('docs/deployments.md, run', () => {
  it('several instances: turns served by two instances are one conversation, sent once when either ends it', async () => {
    env();
    const code = block('export async function onMessage');
    const scope = { NebulyClient, redisStore, createClient, answerWithYourModel };
    const [a, b] = [await run(code, scope), await run(code, scope)];
    for (const instance of [a, b]) closing.push(async () => instance.nebuly.shutdown().then(() => instance.redis.close()));
    const chatId = `chat-${Date.now()}`;
    const first = await a.onMessage(chatId, 'user-1', 'Where is my order?');
    await a.nebuly.flush();
    await b.onMessage(chatId, 'user-1', 'Can I change the address?');
    await b.nebuly.flush();
    expect(first.answer).toBe('answer to Where is my order?');
    await b.onChatClosed(chatId, 'user-1');
    const sent = reference.requests.all({ path: CONVERSATIONS });
    expect(sent.map((request) => inputsOf(request.body))).toEqual([['Where is my order?', 'Can I change the address?']]);
  });

  it(
    'several instances: feedback given on another instance lands on its interaction',
    async () => {
      env();
      const code = block('export async function onMessage');
      const scope = { NebulyClient, redisStore, createClient, answerWithYourModel };
      const [a, b] = [await run(code, scope), await run(code, scope)];
      for (const instance of [a, b]) closing.push(async () => instance.nebuly.shutdown().then(() => instance.redis.close()));
      const chatId = `chat-feedback-${Date.now()}`;
      const { interactionId } = await a.onMessage(chatId, 'user-1', 'Thanks!');
      await a.nebuly.flush();
      await b.onFeedback(chatId, interactionId);
      await b.onChatClosed(chatId, 'user-1');
      const [sent] = reference.requests.all({ path: CONVERSATIONS });
      const interactions = (JSON.parse(sent!.body) as { conversation: { interactions: { feedback_actions?: unknown[] }[] } }).conversation.interactions;
      expect(interactions[0]?.feedback_actions).toEqual([expect.objectContaining({ slug: 'thumbs_up' })]);
    },
  );

  it('serverless: the chat route stores its turn before the response is done, and the cron route sends it once idle', async () => {
    env();
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const store = await createClient({ url: redis.url }).connect();
    const nebuly = new NebulyClient({ recorder: { store: redisStore(store, { prefix: `serverless-${Date.now()}:` }), sweepIntervalMs: 0, idleTimeoutMs: 60_000, now: () => clock } });
    closing.push(async () => nebuly.shutdown().then(() => store.close()));
    const pending: Promise<unknown>[] = [];
    const route = await run(block('export async function POST'), { nebuly, answerWithYourModel, waitUntil: (work: Promise<unknown>) => pending.push(work) });
    const cron = await run(block('export async function GET'), { nebuly });

    const request = (message: string) => new Request('http://app.test/api/chat', { method: 'POST', body: JSON.stringify({ chatId: 'c1', userId: 'u1', message }) });
    const answer = await route.POST(request('Hi')).then((response) => response.json());
    expect(answer).toEqual({ answer: 'answer to Hi', interactionId: expect.any(String) });
    await route.POST(request('And then?'));
    await Promise.all(pending);
    expect(reference.requests.all({ path: CONVERSATIONS })).toEqual([]);

    clock += 60_001; // idle past idleTimeoutMs: the cron's next call sends it
    const report = await cron.GET().then((response) => response.json());
    expect(report).toMatchObject({ delivered: 1 });
    expect(reference.requests.all({ path: CONVERSATIONS }).map((r) => inputsOf(r.body))).toEqual([['Hi', 'And then?']]);
  });

  it('Cloudflare Workers: each interaction is sent as it ends, with its conversation_id, after the response', async () => {
    env();
    const worker = await run(block('// sent after the response, within the Worker'), { NebulyClient, answerWithYourModel });
    const pending: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => pending.push(work) };
    const request = new Request('http://worker.test/', { method: 'POST', body: JSON.stringify({ chatId: 'w1', userId: 'u1', message: 'Hello' }) });
    const response = await worker.__default.fetch(request, { NEBULY_API_KEY: 'doc-key' }, ctx);
    expect(await response.json()).toEqual({ answer: 'answer to Hello', interactionId: expect.any(String) });
    await Promise.all(pending);
    const sent = reference.requests.all({ path: INTERACTIONS }).map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0])).toContain('"conversation_id":"w1"');
  });

  it('one long-running process: SIGTERM sends what was open before the process exits', async () => {
    env();
    const file = `${ROOT}test/store/.recipe-long-running.ts`;
    const code = block("process.on('SIGTERM'").replace("from 'nebuly-client'", `from '${ROOT}src/index.ts'`);
    writeFileSync(
      file,
      `${code}\nconst turn = nebuly.startConversation({ end_user: 'u' }).interaction({ input: 'open at SIGTERM' });\nturn.end({ output: 'ok' });\nconsole.log('ready');\n`,
    );
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...process.env }, stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.on('data', (data: Buffer) => data.toString().includes('ready') && resolve()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(reference.requests.all({ path: CONVERSATIONS }).map((r) => inputsOf(r.body))).toEqual([['open at SIGTERM']]);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
