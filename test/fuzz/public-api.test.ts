import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  conversationInteraction,
  embeddingStep,
  feedbackAction,
  hashEndUser,
  interactionParams,
  llmStep,
  NebulyClient,
  NebulyError,
  retrievalStep,
  usdToMicroDollars,
} from '../../src/index.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { holdsKey, hostile, KEY, type Mutation, mutate, mutation, revoked, runParameters } from './hostile.js';

// One real server on 127.0.0.1 for every run; its project accepts KEY.
let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { [KEY]: 'fuzz' }, port: 0 });
});
afterAll(() => server.close());

// Everything the SDK (or the server) writes to the console is kept, to look for the key.
let logged: unknown[][] = [];
beforeEach(() => {
  logged = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args));
  }
});
afterEach(() => {
  expect(logged.filter((args) => inspect(args, { depth: 8 }).includes(KEY))).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

/** A thrown or rejected value the SDK may let out: its own errors, never the key. */
function expectLibraryError(error: unknown, allowed: abstract new (...args: never[]) => Error = NebulyError): void {
  expect(error).toBeInstanceOf(allowed);
  expect(holdsKey(error)).toBe(false);
}

async function settle(run: () => unknown): Promise<unknown> {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    return error;
  }
  return result instanceof Promise ? result.then(() => undefined, (error: unknown) => error) : undefined;
}

const TIME = '2026-03-01T10:00:00Z';
const LLM = {
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'Hi' },
    { role: 'user', content: [{ type: 'text', text: 'Hi', meta: { depth: [1, { two: 2 }] } }] },
  ],
  output: 'Hello',
  input_tokens: 3,
  output_tokens: 1,
  cost: 12,
};
const RETRIEVAL = { source: 'db', input: 'q', outputs: ['a', 'b'] };
const EMBEDDING = { model: 'e5', input: 'x', input_tokens: 1 };
const INTERACTION = { conversation_id: 'c-1', input: 'Hi', output: 'Hello', time_start: TIME, time_end: TIME, end_user: 'u', tags: { a: 'b' } };
const USER = { end_user: 'u-1', tags: { team: 'a' }, active_from: '2026-01-01', active_to: null };

/** A valid argument of every public method and builder, for hostile values to be put into. */
const RESOURCE_CALLS = {
  'interactions.send': [
    (nebuly: NebulyClient, params: unknown) => nebuly.interactions.send(params as never),
    { interaction: INTERACTION, traces: [LLM, RETRIEVAL, EMBEDDING], user_feedback: [{ slug: 'rating', value: 4 }], anonymize: false },
  ],
  'interactions.delete': [
    (nebuly: NebulyClient, params: unknown) => nebuly.interactions.delete(params as never),
    { filters: [{ kind: 'tag', tag: 't', values: ['v'] }, { kind: 'user', values: ['u'] }], time_range: { start: TIME, end: '2026-03-02T00:00:00Z' } },
  ],
  'conversations.send': [
    (nebuly: NebulyClient, params: unknown) => nebuly.conversations.send(params as never),
    { conversation: { end_user: 'u', interactions: [{ input: 'Hi', output: 'Hello', time_start: TIME, time_end: TIME, tags: { a: 'b' }, trace: [LLM, RETRIEVAL], feedback_actions: [{ slug: 'rating', value: 4.5 }] }] } },
  ],
  'eligibleUsers.insert': [(nebuly: NebulyClient, params: unknown) => nebuly.eligibleUsers.insert(params as never), { users: [USER] }],
  'eligibleUsers.update': [(nebuly: NebulyClient, params: unknown) => nebuly.eligibleUsers.update(params as never), { users: [USER] }],
  'eligibleUsers.delete': [(nebuly: NebulyClient, params: unknown) => nebuly.eligibleUsers.delete(params as never), { users: ['u-1', 'u-2'] }],
  'eligibleUsers.list': [(nebuly: NebulyClient, params: unknown) => nebuly.eligibleUsers.list(...([params] as unknown as [])), {}],
  'platformUsers.update': [(nebuly: NebulyClient, params: unknown) => nebuly.platformUsers.update(params as never), { users: [USER] }],
  'platformUsers.list': [(nebuly: NebulyClient, params: unknown) => nebuly.platformUsers.list(...([params] as unknown as [])), {}],
  'platformUsers.delete': [(nebuly: NebulyClient, params: unknown) => nebuly.platformUsers.delete(params as never), { users: ['u-1'] }],
  variants: [(nebuly: NebulyClient, params: unknown) => nebuly.variants(params as never), { user: 'u', feature_flags: ['f'] }],
  'interactions.list': [
    (nebuly: NebulyClient, params: unknown) => Promise.resolve(nebuly.interactions.list(params as never)),
    { time_range: { start: TIME, end: '2026-03-02T00:00:00Z' }, filters: [{ kind: 'user', values: ['u'] }], limit: 5, offset: 1 },
  ],
  'interactions.addTags': [
    (nebuly: NebulyClient, params: unknown) => nebuly.interactions.addTags(params as never),
    { tags: { csat: '5' }, metadata: { end_user: 'u', time_start: TIME, input: 'Hi', output: 'Hello' } },
  ],
  'interactions.export': [
    async (nebuly: NebulyClient, params: unknown) => {
      for await (const item of nebuly.interactions.export(params as never)) void item;
    },
    { from: TIME, to: '2026-03-09T00:00:00Z' },
  ],
  // Its one argument in an array, so that a mutation has somewhere to go.
  'interactions.get': [(nebuly: NebulyClient, value: unknown) => nebuly.interactions.get(...(argumentsOf(value).slice(0, 1) as [never])), ['0b7f6a2e-3c1d-4e5f-8a9b-0c1d2e3f4a5b']],
} as const;

/** The arguments of a builder that takes several: the array's items, read here, or the value alone. */
function argumentsOf(value: unknown): unknown[] {
  try {
    return Array.isArray(value) ? [value[0], value[1]] : [value];
  } catch {
    return [value];
  }
}

const BUILDER_CALLS = {
  llmStep: [(value: unknown) => llmStep(value as never), LLM],
  retrievalStep: [(value: unknown) => retrievalStep(value as never), RETRIEVAL],
  embeddingStep: [(value: unknown) => embeddingStep(value as never), EMBEDDING],
  feedbackAction: [(value: unknown) => feedbackAction(value as never), { slug: 'comment', text: 'nice' }],
  interactionParams: [(value: unknown) => interactionParams(value as never), { ...INTERACTION, traces: [LLM], user_feedback: [{ slug: 'thumbs_up' }], anonymize: true }],
  conversationInteraction: [(value: unknown) => conversationInteraction(value as never), { input: 'Hi', output: 'Hello', time_start: TIME, time_end: TIME, trace: [EMBEDDING] }],
  usdToMicroDollars: [(value: unknown) => usdToMicroDollars(...(argumentsOf(value) as [never])), [0.25]],
  hashEndUser: [(value: unknown) => hashEndUser(...(argumentsOf(value) as [never, never])), ['alice', { salt: 'pepper' }]],
} as const;

const client = () => new NebulyClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0, timeoutMs: 5_000 });

describe('fuzz: hostile values against every public call (seeded, bounded)', () => {
  it('resource methods resolve, or reject with a NebulyError holding no key', async () => {
    const nebuly = client();
    const names = Object.keys(RESOURCE_CALLS) as (keyof typeof RESOURCE_CALLS)[];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), mutation, async (name, change) => {
        const [call, base] = RESOURCE_CALLS[name];
        const error = await settle(() => call(nebuly, mutate(base, change)));
        if (error !== undefined) expectLibraryError(error);
      }),
      runParameters(200),
    );
  });

  it('builders return, or throw (reject) a NebulyError', async () => {
    const names = Object.keys(BUILDER_CALLS) as (keyof typeof BUILDER_CALLS)[];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), mutation, async (name, change) => {
        const [call, base] = BUILDER_CALLS[name];
        const error = await settle(() => call(mutate(base, change)));
        if (error !== undefined) expectLibraryError(error);
      }),
      runParameters(300),
    );
  });

  it('the constructor succeeds, or throws a TypeError that repeats no key', async () => {
    const options = {
      apiKey: KEY,
      region: 'eu',
      baseUrl: 'http://127.0.0.1:1',
      timeoutMs: 1_000,
      maxRetries: 1,
      retryDelayMs: 10,
      headers: { 'x-team': 'a' },
      recorder: { idleTimeoutMs: 1_000, maxConcurrentSends: 2, shutdownTimeoutMs: 100 },
    };
    // The key, pasted where it does not belong, is one more hostile value.
    const misplaced = fc.constantFrom(KEY, ` ${KEY}\n`, `https://${KEY}`, `${KEY}:443`, { [KEY]: KEY });
    await fc.assert(
      fc.asyncProperty(fc.record({ path: mutation.map((m) => m.path), make: fc.oneof(hostile, misplaced.map((value) => () => value)) }), async (change) => {
        const error = await settle(() => new NebulyClient(mutate(options, change) as never).shutdown());
        if (error !== undefined) expectLibraryError(error, TypeError);
      }),
      runParameters(200),
    );
  });

  it('a custom fetch that throws the request, headers and all: no key in what is rejected or reported', async () => {
    const thrown = [
      (authorization: string) => new TypeError(`fetch failed: ${authorization}`),
      (authorization: string) => Object.assign(new Error('fetch failed'), { headers: { authorization }, config: { authorization } }),
      (authorization: string) => new Error('fetch failed', { cause: new Error('inner', { cause: { authorization } }) }),
      (authorization: string) => Object.assign(new Error('fetch failed'), { [inspect.custom]: () => authorization }),
      (authorization: string) => Object.defineProperty(new Error('fetch failed'), 'code', { get: () => authorization, enumerable: true }),
      (authorization: string) => authorization,
      (authorization: string) => ({ authorization, toString: () => authorization }),
      () => revoked(),
    ];
    await fc.assert(
      fc.asyncProperty(fc.nat(thrown.length - 1), fc.boolean(), async (which, viaRecorder) => {
        const errors: unknown[] = [];
        const nebuly = new NebulyClient({
          apiKey: KEY,
          baseUrl: server.url,
          maxRetries: 1,
          retryDelayMs: 1,
          onError: (error) => errors.push(error),
          fetch: (input) => {
            throw (thrown[which] as (authorization: string) => unknown)((input as Request).headers.get('authorization') ?? '');
          },
        });
        if (viaRecorder) {
          const conversation = nebuly.startConversation({ end_user: 'u' });
          conversation.interaction({ input: 'q' }).end({ output: 'a' });
          await conversation.end();
          await nebuly.shutdown({ timeoutMs: 1_000 });
          expect(errors.length).toBeGreaterThan(0);
          for (const error of errors) expectLibraryError(error);
        } else {
          expectLibraryError(await settle(() => nebuly.eligibleUsers.list()));
        }
      }),
      runParameters(40),
    );
  });

  it('the reference server answers a hostile JSON body 2xx or 4xx, never 500', async () => {
    const paths = {
      '/event-ingestion/api/v3/events/trace_interaction': ['POST', RESOURCE_CALLS['interactions.send'][1]],
      '/event-ingestion/api/v2/events/trace_conversation': ['POST', RESOURCE_CALLS['conversations.send'][1]],
      '/api/external/projects/delete-interactions': ['POST', RESOURCE_CALLS['interactions.delete'][1]],
      '/api/external/eligible-users': ['PUT', RESOURCE_CALLS['eligibleUsers.update'][1]],
      '/api/external/platform-users': ['POST', RESOURCE_CALLS['platformUsers.update'][1]],
      '/api/external/variants': ['POST', RESOURCE_CALLS.variants[1]],
      '/api/external/get-interactions': ['POST', RESOURCE_CALLS['interactions.list'][1]],
      '/event-ingestion/api/v2/events/tags': ['POST', RESOURCE_CALLS['interactions.addTags'][1]],
    } as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...(Object.keys(paths) as (keyof typeof paths)[])), mutation, async (path, change) => {
        const [method, base] = paths[path];
        let body: string;
        try {
          body = JSON.stringify(mutate(base, change)) ?? 'null';
        } catch {
          body = '{"not": "serializable"';
        }
        const response = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${KEY}` }, body });
        await response.arrayBuffer();
        expect(response.status).toBeLessThan(500);
      }),
      runParameters(100),
    );
  });

  it('the reference server answers a hostile query or path of its reading endpoints 2xx or 4xx, never 500', async () => {
    const { from, to } = RESOURCE_CALLS['interactions.export'][1];
    const reads = {
      // The query of `export` (what the client's windows ask), and the detail's path param.
      export: (change: Mutation) => {
        const query = mutate({ date_gte: from, date_lt: to }, change);
        const entries = typeof query === 'object' && query !== null ? Object.entries(query as object) : [['date_gte', query]];
        const search = new URLSearchParams(entries.map(([name, value]) => [String(name), typeof value === 'string' ? value : JSON.stringify(value) ?? '']));
        return `/api/external/export/interactions?${search.toString()}`;
      },
      detail: (change: Mutation) => {
        const [id] = argumentsOf(mutate(RESOURCE_CALLS['interactions.get'][1], change));
        return `/api/external/export/interactions/detail/${encodeURIComponent(typeof id === 'string' ? id : JSON.stringify(id) ?? '')}`;
      },
    } as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('export', 'detail' as const), mutation, async (which, change) => {
        let path: string;
        try {
          path = reads[which](change);
        } catch {
          path = '/api/external/export/interactions?date_gte=%ZZ';
        }
        const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${KEY}` } });
        await response.arrayBuffer();
        expect(response.status).toBeLessThan(500);
      }),
      runParameters(100),
    );
  });

  it('recorder calls never throw, their promises never reject, and onError gets only NebulyErrors without the key', async () => {
    const RECORDER_CALLS = {
      start: { end_user: 'u', tags: { app: 'web' }, conversation_id: 'c' },
      interaction: { input: 'q', tags: { plan: 'pro' } },
      llm: LLM,
      retrieval: RETRIEVAL,
      embedding: EMBEDDING,
      feedback: { slug: 'rating', value: 5 },
      tag: { tags: { csat: '5' } },
      turnEnd: { output: 'a' },
      end: {},
      flush: {},
      shutdown: { timeoutMs: 200 },
    } as const;
    type Op = keyof typeof RECORDER_CALLS;
    const step = fc
      .constantFrom(...(Object.keys(RECORDER_CALLS) as Op[]))
      .chain((op) => fc.record({ op: fc.constant(op), target: fc.nat(), arg: fc.oneof(fc.constant(undefined), mutation) }));

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), fc.boolean(), async (steps, defaultOnError) => {
        const errors: unknown[] = [];
        const nebuly = new NebulyClient({
          apiKey: KEY,
          baseUrl: server.url,
          maxRetries: 0,
          ...(defaultOnError ? {} : { onError: (error: NebulyError) => errors.push(error) }),
          recorder: { shutdownTimeoutMs: 1_000 },
        });
        const conversations = [nebuly.startConversation({ end_user: 'first' })];
        const turns = [conversations[0]!.interaction({ input: 'first' })];
        const pending: Promise<unknown>[] = [];
        const pick = <T>(items: readonly T[], index: number): T => items[index % items.length] as T;
        for (const { op, target, arg: change } of steps) {
          const arg = change === undefined ? RECORDER_CALLS[op] : mutate(RECORDER_CALLS[op], change);
          const run = (): unknown => {
            switch (op) {
              case 'start':
                return conversations.push(nebuly.startConversation(arg as never));
              case 'interaction':
                return turns.push(pick(conversations, target).interaction(arg as never));
              case 'llm':
                return pick(turns, target).llm(arg as never);
              case 'retrieval':
                return pick(turns, target).retrieval(arg as never);
              case 'embedding':
                return pick(turns, target).embedding(arg as never);
              case 'feedback':
                return pick(turns, target).feedback(arg as never);
              case 'tag': {
                // By id, as an app does later: the turn's conversation and id, the hostile tags.
                const turn = pick(turns, target);
                const tags = typeof arg === 'object' && arg !== null ? (arg as { tags?: unknown }).tags : arg;
                return pending.push(nebuly.tag({ conversation_id: 'c', interaction_id: turn.id, tags } as never));
              }
              case 'turnEnd':
                return pick(turns, target).end(arg as never);
              case 'end':
                return pending.push(pick(conversations, target).end());
              case 'flush':
                return pending.push(nebuly.flush());
              case 'shutdown':
                return pending.push(nebuly.shutdown(arg as never));
            }
          };
          expect(run).not.toThrow();
        }
        pending.push(nebuly.shutdown({ timeoutMs: 1_000 }));
        const settled = await Promise.allSettled(pending);
        expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
        for (const error of errors) expectLibraryError(error);
      }),
      runParameters(60),
    );
  });
});
