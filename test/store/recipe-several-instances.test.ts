/**
 * docs/deploy-several-instances.md's recipe as users run it: three instances of a
 * node:http app (child processes, each its own NebulyClient and connection) made of the
 * guide's code block, on one real redis-server, behind a round robin this test plays.
 * Each next request of a chat (the next turn, feedback, the close) may reach another
 * instance, and no instance awaits `flush()` before it answers. The instances reach Redis
 * through a network's jitter (up to {@link JITTER_MS}): on loopback alone a turn's write
 * would land before the next request could reach another instance, and the test would
 * pass without the settle window it is there to check.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { docSnippet, type SnippetProject, writeProject } from '../helpers/doc-snippets.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';
import { type LatencyProxy, startLatencyProxy } from '../helpers/latency-proxy.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
const FEEDBACK = '/event-ingestion/api/v1/events/feedback';
const INSTANCES = 3;
const USERS = 60;
const TURNS = 4;
/** The most a chunk between an instance and Redis is delayed by. */
const JITTER_MS = 20;

/**
 * The app of one instance: the guide's block (its imports pointed at the sources), the
 * model it leaves to the reader (an answer after a few milliseconds, as a model's would
 * come), and the routes that call the block's functions. SIGTERM shuts it down.
 */
const RECIPE = docSnippet('docs/deploy-several-instances.md', "import { NebulyClient } from 'nebuly-client';");
const app = (recipe: string) => `${recipe
  .replace("from 'nebuly-client'", `from ${JSON.stringify(`${SRC}index.ts`)}`)
  .replace("from 'nebuly-client/redis'", `from ${JSON.stringify(`${SRC}redis/index.ts`)}`)}
import { createServer } from 'node:http';

async function answerWithYourModel(message: string): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
  return \`answer to \${message}\`;
}

const routes: Record<string, (body: Record<string, string>) => Promise<unknown>> = {
  '/message': ({ chatId, userId, message }) => onMessage(chatId!, userId!, message!),
  '/feedback': ({ chatId, interactionId }) => onFeedback(chatId!, interactionId!),
  '/close': ({ chatId, userId }) => onChatClosed(chatId!, userId!),
};
const server = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk) => (text += chunk));
  request.on('end', async () => {
    const answer = await routes[request.url ?? '']!(JSON.parse(text));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer ?? {}));
  });
});
server.listen(0, '127.0.0.1', () => console.log(\`listening \${(server.address() as { port: number }).port}\`));
process.on('SIGTERM', async () => {
  server.close();
  await nebuly.shutdown();
  await redis.close();
});
`;

/** One instance: its base URL, what it wrote to stderr, and how it exited. */
interface Instance {
  url: string;
  stderr: () => string;
  child: ChildProcess;
}

function startInstance(file: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: PROCESS_TIMEOUT_MS });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (port !== undefined) resolve({ url: `http://127.0.0.1:${port}`, stderr: () => stderr, child });
    });
    child.on('exit', (code) => reject(new Error(`an instance exited (${code}) before it listened: ${stderr}`)));
  });
}

let redis: RedisServer;
let proxy: LatencyProxy;
let reference: ReferenceServer;
let project: SnippetProject | undefined;
let instances: Instance[] = [];

beforeAll(async () => {
  redis = await startRedisServer({ own: true });
  reference = await createReferenceServer({ apiKeys: { 'recipe-key': 'recipe' } });
  proxy = await startLatencyProxy(redis.port, JITTER_MS);
});

/** Stops the instances (`signal`: SIGTERM, their shutdown; SIGKILL, after a failure) and resolves once they exited. */
async function stopInstances(signal: NodeJS.Signals): Promise<void> {
  await Promise.all(instances.map(({ child }) => new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.on('exit', resolve).kill(signal) : resolve(null)))));
  project?.remove();
  project = undefined;
}

/** Starts the instances of `recipe`, with a clean request log. */
async function startInstances(recipe: string): Promise<void> {
  reference.requests.clear();
  project = writeProject({ 'server.ts': app(recipe) });
  const env = { NEBULY_API_KEY: 'recipe-key', NEBULY_BASE_URL: reference.url, REDIS_URL: `redis://127.0.0.1:${proxy.port}` };
  instances = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(`${project!.dir}/server.ts`, env)));
}

afterEach(() => stopInstances('SIGKILL'));

afterAll(async () => {
  await reference?.close();
  await proxy?.close();
  await redis?.stop();
});

/** The load balancer: each request to the next instance, whoever sends it. */
let next = 0;
async function post<T>(path: string, body: object): Promise<T> {
  const instance = instances[next++ % INSTANCES]!;
  const response = await fetch(`${instance.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
}

/** One user's chat: four turns, feedback right after one of them, then the close. */
async function chat(user: number): Promise<void> {
  const chatId = `chat-${user}`;
  const userId = `user-${user}`;
  for (let turn = 1; turn <= TURNS; turn += 1) {
    const { interactionId } = await post<{ interactionId: string }>('/message', { chatId, userId, message: `${chatId} turn ${turn}` });
    // Feedback on each turn in turn over the users: on the first, …, on the last, just before the close.
    if (turn === (user % TURNS) + 1) await post('/feedback', { chatId, interactionId });
  }
  await post('/close', { chatId, userId });
}

/** A post of the bulk endpoint: one conversation (its body names no id; its inputs name their chat). */
interface SentConversation {
  conversation: { interactions: { input: string; feedback_actions?: { slug: string }[] }[] };
}

/** The chat of a sent conversation, from its inputs (`chat-7 turn 2`); `mixed` if they name several. */
const chatOf = ({ interactions }: SentConversation['conversation']) => {
  const chats = new Set(interactions.map((interaction) => interaction.input.split(' ')[0]));
  return chats.size === 1 ? [...chats][0]! : `mixed: ${[...chats].join(', ')}`;
};

/**
 * Runs `users` chats at once through the instances, shuts them down (SIGTERM), and
 * answers each chat that did not reach the service as one post of its four turns in
 * order with its feedback on the turn it was given on, and what the instances wrote to
 * stderr.
 */
async function chatsThrough(users: number): Promise<{ wrong: string[]; stderr: string }> {
  await Promise.all(Array.from({ length: users }, (_, user) => chat(user)));
  // The close answered once its conversation was sent; SIGTERM then sends what is left (nothing, if all is well).
  await stopInstances('SIGTERM');
  const stderr = instances.map((instance) => instance.stderr()).join('');

  const sent = reference.requests.all({ path: CONVERSATIONS }).map((request) => (JSON.parse(request.body) as SentConversation).conversation);
  const byChat = new Map<string, SentConversation['conversation'][]>();
  for (const conversation of sent) byChat.set(chatOf(conversation), [...(byChat.get(chatOf(conversation)) ?? []), conversation]);
  const wrong: string[] = [];
  for (const chat of byChat.keys()) if (!/^chat-\d+$/.test(chat) || Number(chat.slice(5)) >= users) wrong.push(`${chat}: not a chat of this run`);
  for (let user = 0; user < users; user += 1) {
    const posts = (byChat.get(`chat-${user}`) ?? []).map((post) =>
      post.interactions.map((interaction) => `${interaction.input.slice(interaction.input.indexOf(' ') + 1)}${(interaction.feedback_actions ?? []).map((action) => ` +${action.slug}`).join('')}`),
    );
    const expected = Array.from({ length: TURNS }, (_, turn) => `turn ${turn + 1}${turn === user % TURNS ? ' +thumbs_up' : ''}`);
    if (JSON.stringify(posts) !== JSON.stringify([expected])) wrong.push(`chat-${user}: ${JSON.stringify(posts)}`);
  }
  return { wrong, stderr };
}

describe('docs/deploy-several-instances.md, three instances behind a round robin', () => {
  it(`stores ${USERS} chats of ${TURNS} turns whole, once each, turns in order, feedback on its turn, without flush()`, async () => {
    await startInstances(RECIPE);
    expect(await chatsThrough(USERS)).toEqual({ wrong: [], stderr: '' });
    // Every feedback was given while its conversation was open: none went on its own.
    expect(reference.requests.all({ path: FEEDBACK })).toEqual([]);
  });

  it('with settleMs: 0, as the guide says: whole too when each turn awaits flush() before it answers', async () => {
    const flushing = RECIPE.replace("{ prefix: 'nebuly:' }) }", "{ prefix: 'flushing:' }), settleMs: 0 }").replace(
      'turn.end({ output: answer });',
      'turn.end({ output: answer });\n  await nebuly.flush();',
    );
    expect(flushing).toMatch(/settleMs: 0 [\s\S]*await nebuly.flush\(\)/);
    await startInstances(flushing);
    expect(await chatsThrough(USERS / 2)).toEqual({ wrong: [], stderr: '' });
  });
});
