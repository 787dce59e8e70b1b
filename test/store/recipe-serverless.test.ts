/**
 * docs/deploy-serverless.md's recipe as a serverless platform runs it: every request on
 * a fresh function instance (its module evaluated anew: a new client, a new connection to
 * one real redis-server), what it handed to `waitUntil` awaited, then the instance
 * frozen for good (its connection cut, nothing ever run in it again); the cron route on
 * yet another instance once the chats went idle. And docs/integrations.md's serverless
 * recipe for the AI SDK (a standalone target with `conversationId`), the same way, and
 * without Redis with `delivery: 'interaction'`, as that guide offers. Counted as the
 * service stores them (the reference server's conversations, by id).
 */
import { stepCountIs, streamText } from 'ai';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { endConversation, nebulyTelemetry } from '../../src/integrations/ai-sdk/index.js';
import { NebulyClient } from '../../src/index.js';
import { createReferenceServer, INSPECTION_PATHS, type ReferenceServer } from '../../src/reference-server/index.js';
import { redisStore } from '../../src/redis/index.js';
import { recipeBlock, runRecipe } from '../helpers/doc-recipes.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { getOrder, mockModel, stream, streamedAnswer } from '../integrations/ai-sdk-fixtures.js';

const CHATS = 50;
const TURNS = 3;
/** The recipe's idle time-out (the default: it sets none). */
const IDLE_MS = 15 * 60_000;

/** The module of the guide's `lib/nebuly.ts`, as one function instance made it (no `redis` without Redis). */
interface Lib {
  nebuly: NebulyClient;
  redis?: ReturnType<typeof createClient>;
}

/** `lib/nebuly.ts` of docs/deploy-serverless.md, evaluated anew. */
const withRedis = () => runRecipe<Lib>(recipeBlock('// lib/nebuly.ts'), { NebulyClient, redisStore, createClient });

let redis: RedisServer;
let reference: ReferenceServer;
/** Every instance made, frozen after its request; shut down once the test is over. */
const instances: Lib[] = [];

beforeAll(async () => {
  redis = await startRedisServer({ own: true });
  reference = await createReferenceServer({ apiKeys: { 'recipe-key': 'recipe' } });
});

afterAll(async () => {
  await Promise.all(instances.splice(0).map(({ nebuly }) => nebuly.shutdown({ timeoutMs: 1_000 })));
  await reference?.close();
  await redis?.stop();
});

/** A route module: its exported handlers. */
type Route = Record<string, (request?: Request) => Promise<Response>>;

/**
 * One request on a fresh instance: its client made anew by `lib`, then `route` (a block
 * of the guides importing `nebuly`) called by `call`; resolves once what the route
 * handed to `waitUntil` settled, the instance frozen for good after it.
 */
async function invoke(route: string, scope: Record<string, unknown>, call: (module: Route) => Promise<Response>, lib = withRedis): Promise<Response> {
  const { nebuly, redis: connection } = await lib();
  instances.push({ nebuly });
  const handedOver: Promise<unknown>[] = [];
  const module = await runRecipe<Route>(route, {
    ...scope,
    nebuly,
    waitUntil: (work: Promise<unknown>) => void handedOver.push(work),
  });
  const response = await call(module);
  await response.clone().text(); // a streamed answer is over once read
  await Promise.all(handedOver);
  connection?.destroy(); // frozen: whatever this instance did not finish stays unfinished
  return response;
}

/** The conversations the service stored (the reference's view, by conversation id), each as its inputs. */
async function stored(): Promise<string[][]> {
  const response = await fetch(`${reference.url}${INSPECTION_PATHS.conversations}`, { headers: { authorization: 'Bearer recipe-key' } });
  const { conversations } = (await response.json()) as { conversations: { interactions: { input: string }[] }[] };
  return conversations.map((conversation) => conversation.interactions.map((interaction) => interaction.input));
}

const expected = () => Array.from({ length: CHATS }, (_, chat) => Array.from({ length: TURNS }, (_, turn) => `chat-${chat} turn ${turn + 1}`));
const byChat = (conversations: string[][]) => [...conversations].sort((a, b) => Number(a[0]?.split(/[- ]/)[1]) - Number(b[0]?.split(/[- ]/)[1]));

/** The cron route of docs/deploy-serverless.md, called once every chat went idle: what it reports. */
async function cron(): Promise<unknown> {
  vi.setSystemTime(Date.now() + IDLE_MS + 1_000);
  const response = await invoke(recipeBlock('// app/api/nebuly-sweep/route.ts'), {}, (module) => module.GET!());
  return response.json();
}

describe('serverless recipes, each request on a fresh instance, one real Redis', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] }); // the clock the cron's idle time-out is read on
    reference.requests.clear();
    reference.store.clear();
    vi.stubEnv('NEBULY_API_KEY', 'recipe-key');
    vi.stubEnv('NEBULY_BASE_URL', reference.url);
    vi.stubEnv('REDIS_URL', redis.url);
  });
  afterEach(() => vi.useRealTimers());

  it(`docs/deploy-serverless.md: ${CHATS} chats of ${TURNS} turns are ${CHATS} conversations, sent by the cron route`, async () => {
    const answerWithYourModel = async (message: string) => `answer to ${message}`;
    const route = recipeBlock('// app/api/chat/route.ts');
    for (let turn = 1; turn <= TURNS; turn += 1) {
      await Promise.all(
        Array.from({ length: CHATS }, async (_, chat) => {
          const request = new Request('http://app.test/api/chat', { method: 'POST', body: JSON.stringify({ chatId: `chat-${chat}`, userId: `user-${chat}`, message: `chat-${chat} turn ${turn}` }) });
          const response = await invoke(route, { answerWithYourModel }, (module) => module.POST!(request));
          expect(await response.json()).toEqual({ answer: `answer to chat-${chat} turn ${turn}`, interactionId: expect.any(String) });
        }),
      );
    }
    expect(await stored()).toEqual([]);
    expect(await cron()).toMatchObject({ delivered: CHATS });
    expect(byChat(await stored())).toEqual(expected());
  });

  /** The chats through docs/integrations.md's AI SDK recipe, every request on a fresh instance made by `lib`. */
  async function aiSdkChats(lib: () => Promise<Lib>): Promise<void> {
    const route = recipeBlock('// nebuly: made with redisStore', ['integrations']);
    for (let turn = 1; turn <= TURNS; turn += 1) {
      await Promise.all(
        Array.from({ length: CHATS }, async (_, chat) => {
          const question = `chat-${chat} turn ${turn}`;
          const model = mockModel({ stream: [stream(streamedAnswer([`answer to ${question}`]))] });
          const scope = { streamText, stepCountIs, nebulyTelemetry, endConversation, getOrder, openai: () => model, hashEndUser: async (id: string) => id };
          const request = new Request('http://app.test/api/chat', { method: 'POST', body: JSON.stringify({ question, userId: `user-${chat}`, chatId: `chat-${chat}` }) });
          const response = await invoke(route, scope, (module) => module.POST!(request), lib);
          expect(await response.text()).toBe(`answer to ${question}`);
        }),
      );
    }
  }

  it(`docs/integrations.md, the AI SDK with conversationId: ${CHATS} chats of ${TURNS} turns are ${CHATS} conversations`, async () => {
    await aiSdkChats(withRedis);
    await cron();
    expect(byChat(await stored())).toEqual(expected());
  });

  it(`docs/integrations.md, the same without Redis, delivery: 'interaction': the service groups the turns, ${CHATS} conversations`, async () => {
    await aiSdkChats(async () => ({ nebuly: new NebulyClient({ recorder: { delivery: 'interaction' } }) }));
    expect(byChat(await stored())).toEqual(expected());
  });
});
