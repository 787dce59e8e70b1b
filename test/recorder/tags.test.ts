import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError, MaskError, NebulyClient, RecordingError, ValidationError, type NebulyError } from '../../src/index.js';
import type { Mask } from '../../src/core/privacy-options.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { redisStore } from '../../src/redis/index.js';
import type { AddTagsBody, SendConversationBody } from '../../src/types/index.js';
import type { ConversationStore } from '../../src/types/store.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { sharedStore } from './shared-store.js';

// `nebuly.tag()`: tags added to an interaction after the fact, by its id, against the
// reference server over real sockets, with the memory store and a real Redis, in both
// delivery modes.

const KEY = 'tags-key';
const PROJECT = 'tags';
const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
const INTERACTIONS = '/event-ingestion/api/v3/events/trace_interaction';
const TAGS = '/event-ingestion/api/v2/events/tags';

let server: ReferenceServer;
let redis: RedisServer;
const closing: (() => Promise<unknown>)[] = [];
let prefixes = 0;

beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { [KEY]: PROJECT } });
  redis = await startRedisServer();
});
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  server.faults.clear();
  server.requests.clear();
  server.store.clear();
});
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

type StoreKind = 'memory' | 'redis';
type Delivery = 'conversation' | 'interaction';

/** The `Idempotency-Key` of each request to the tags endpoint, in order. */
const tagKeys: string[] = [];

/** Makes the stores of `count` instances of one backend: one shared memory store, or one Redis store each (its own connection, one prefix). */
async function stores(kind: StoreKind, count: number): Promise<ConversationStore[]> {
  if (kind === 'memory') {
    const store = count === 1 ? undefined : sharedStore();
    return Array.from({ length: count }, () => store as ConversationStore);
  }
  const prefix = `tags:${process.pid}:${(prefixes += 1)}:`;
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = createClient({ url: redis.url });
      await client.connect();
      closing.push(() => client.quit());
      return redisStore(client, { prefix });
    }),
  );
}

/** `count` instances of a backend on one store, each with its errors, against the reference server. */
async function backend(kind: StoreKind, delivery: Delivery, count = 2, extra: { mask?: Mask; maxRetries?: number } = {}) {
  const errors: NebulyError[] = [];
  const clients = (await stores(kind, count)).map((store) => {
    const nebuly = new NebulyClient({
      apiKey: KEY,
      baseUrl: server.url,
      retryDelayMs: 1,
      maxRetries: extra.maxRetries ?? 2,
      onError: (error) => errors.push(error),
      ...(extra.mask === undefined ? {} : { mask: extra.mask }),
      fetch: (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname === TAGS) tagKeys.push(request.headers.get('idempotency-key') ?? '');
        return fetch(request);
      },
      recorder: { delivery, sweepIntervalMs: 0, settleMs: 50, ...(store === undefined ? {} : { store }) },
    });
    closing.push(() => nebuly.shutdown());
    return nebuly;
  });
  tagKeys.length = 0;
  return { clients, errors };
}

const bodies = (path: string) => server.requests.all({ path }).map((request) => JSON.parse(request.body) as Record<string, unknown>);

/** The tags of each interaction sent, as the wire carried them. */
function sentTags(delivery: Delivery): unknown[] {
  if (delivery === 'interaction') return bodies(INTERACTIONS).map((body) => (body as { interaction: { tags?: unknown } }).interaction.tags);
  return bodies(CONVERSATIONS).flatMap((body) => (body as { conversation: { interactions: { tags?: unknown }[] } }).conversation.interactions.map((one) => one.tags));
}

const storedTags = () => server.store.listInteractions(PROJECT).map((interaction) => interaction.tags);

describe.each(['memory', 'redis'] as const)('nebuly.tag() with the %s store', (kind) => {
  describe.each(['conversation', 'interaction'] as const)("delivery: '%s'", (delivery) => {
    it('on a turn still open here: merged into its tags and sent with it, the later value winning', async () => {
      const { clients: [a], errors } = await backend(kind, delivery, 1);
      const conversation = a!.conversation({ conversation_id: 'open', end_user: 'u', tags: { app: 'web', csat: '0' } });
      const turn = conversation.interaction({ input: 'q', tags: { plan: 'pro' } });
      await a!.tag({ conversation_id: 'open', interaction_id: turn.id, tags: { csat: '5', ticket: 'T-1' } });
      turn.end({ output: 'a' });
      await conversation.end();
      await a!.flush();
      expect(sentTags(delivery)).toEqual([{ app: 'web', csat: '5', plan: 'pro', ticket: 'T-1' }]);
      expect(bodies(TAGS)).toEqual([]);
      expect(storedTags()).toEqual([{ app: 'web', csat: '5', plan: 'pro', ticket: 'T-1' }]);
      expect(errors).toEqual([]);
    });

    it('once sent: to the tags endpoint from another instance, with one Idempotency-Key, and stored by the service', async () => {
      const { clients: [a, b], errors } = await backend(kind, delivery);
      const conversation = a!.conversation({ conversation_id: 'sent', end_user: 'user-7', tags: { app: 'web' } });
      const turn = conversation.interaction({ input: 'Where is my order?' });
      const timeStart = new Date(Date.now()).toISOString();
      turn.end({ output: 'It left on Monday.' });
      await conversation.end();
      await a!.flush();
      await b!.tag({ conversation_id: 'sent', interaction_id: turn.id, tags: { csat: '5', app: 'mobile' } });
      await b!.flush();

      const [body] = bodies(TAGS) as { tags: unknown; metadata: Record<string, string> }[];
      expect(body).toEqual({
        tags: { csat: '5', app: 'mobile' },
        metadata: { end_user: 'user-7', time_start: expect.any(String), input: 'Where is my order?', output: 'It left on Monday.' },
      });
      expect(Math.abs(Date.parse(body!.metadata.time_start!) - Date.parse(timeStart))).toBeLessThan(1_000);
      expect(server.requests.all({ path: TAGS }).map((request) => request.status)).toEqual([202]);
      expect(tagKeys).toHaveLength(1);
      expect(tagKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
      // The service merged them into the interaction it stored.
      expect(storedTags()).toEqual([{ app: 'mobile', csat: '5' }]);
      expect(errors).toEqual([]);
    });

    it('a 503 then success: retried under the same Idempotency-Key, nothing reported', async () => {
      const { clients: [a, b], errors } = await backend(kind, delivery);
      const conversation = a!.conversation({ conversation_id: 'retry', end_user: 'u' });
      const turn = conversation.interaction({ input: 'q' }).end({ output: 'a' });
      await conversation.end();
      await a!.flush();
      server.faults.add({ status: 503, times: 1, path: TAGS });
      await b!.tag({ conversation_id: 'retry', interaction_id: turn.id, tags: { resolved: 'yes' } });
      await b!.flush();
      expect(server.requests.all({ path: TAGS }).map((request) => request.status)).toEqual([503, 202]);
      expect(tagKeys).toHaveLength(2);
      expect(tagKeys[1]).toBe(tagKeys[0]);
      expect(storedTags()).toEqual([{ resolved: 'yes' }]);
      expect(errors).toEqual([]);
    });
  });

  it('on the stored interaction of an open conversation, from another instance: sent with it, not to the tags endpoint', async () => {
    const { clients: [a, b], errors } = await backend(kind, 'conversation');
    const turn = a!.conversation({ conversation_id: 'stored', end_user: 'u' }).interaction({ input: 'q', tags: { plan: 'pro', csat: '1' } });
    turn.end({ output: 'a' });
    await a!.flush();
    await b!.tag({ conversation_id: 'stored', interaction_id: turn.id, tags: { csat: '4' } });
    await a!.tag({ conversation_id: 'stored', interaction_id: turn.id, tags: { csat: '5', ticket: 'T-2' } });
    await b!.conversation({ conversation_id: 'stored', end_user: 'u' }).end();
    expect(sentTags('conversation')).toEqual([{ plan: 'pro', csat: '5', ticket: 'T-2' }]);
    expect(bodies(TAGS)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a tags endpoint that keeps failing: reported to onError with the body, never thrown', async () => {
    const { clients: [a, b], errors } = await backend(kind, 'conversation', 2, { maxRetries: 1 });
    const conversation = a!.conversation({ conversation_id: 'failing', end_user: 'u' });
    const turn = conversation.interaction({ input: 'q' }).end({ output: 'a' });
    await conversation.end();
    server.faults.add({ status: 503, times: Infinity, path: TAGS });
    await expect(b!.tag({ conversation_id: 'failing', interaction_id: turn.id, tags: { csat: '2' } })).resolves.toBeUndefined();
    await b!.flush();
    expect(server.requests.all({ path: TAGS }).map((request) => request.status)).toEqual([503, 503]);
    expect(tagKeys[1]).toBe(tagKeys[0]);
    expect(errors).toEqual([expect.any(DeliveryError)]);
    const error = errors[0] as DeliveryError;
    expect(error.message).toMatch(/503/);
    // What `nebuly replay` resends, under the key its posts carried.
    expect(JSON.parse(error.payload)).toEqual({ tags: { csat: '2' }, metadata: expect.objectContaining({ end_user: 'u', input: 'q', output: 'a' }) });
    expect(error.idempotencyKey).toBe(tagKeys[0]);
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it('an interaction no conversation holds or sent: tags_unknown_interaction, nothing sent', async () => {
    const { clients: [a], errors } = await backend(kind, 'conversation');
    await a!.tag({ conversation_id: 'nowhere', interaction_id: 'nope', tags: { csat: '5' } });
    expect(errors).toEqual([expect.any(RecordingError)]);
    expect((errors[0] as RecordingError).code).toBe('tags_unknown_interaction');
    expect(errors[0]?.message).toMatch(/Tags on interaction nope of conversation nowhere/);
    expect(bodies(TAGS)).toEqual([]);
  });
});

describe('nebuly.tag() params', () => {
  it('bad params: a ValidationError naming the field, nothing recorded, never thrown', async () => {
    const { clients: [a], errors } = await backend('memory', 'conversation', 1);
    const conversation = a!.conversation({ conversation_id: 'c', end_user: 'u' });
    const turn = conversation.interaction({ input: 'q' });
    const proto = JSON.parse('{"__proto__": "x", "csat": "5"}') as Record<string, string>;
    const calls: unknown[] = [
      { conversation_id: 'c', interaction_id: turn.id, tags: proto },
      { conversation_id: 'c', interaction_id: turn.id, tags: { csat: 5 } },
      { conversation_id: 'c', interaction_id: turn.id, tags: {} },
      { conversation_id: 'c', interaction_id: turn.id, tags: ['csat'] },
      { conversation_id: 'c', interaction_id: turn.id },
      { conversation_id: '', interaction_id: 3, tags: { csat: '5' } },
      {
        conversation_id: 'c',
        interaction_id: turn.id,
        tags: Object.defineProperty({}, 'csat', {
          enumerable: true,
          get: () => {
            throw new Error('no');
          },
        }),
      },
      null,
    ];
    for (const params of calls) await expect(a!.tag(params as never)).resolves.toBeUndefined();
    turn.end({ output: 'a' });
    await conversation.end();

    expect(errors.every((error) => error instanceof ValidationError)).toBe(true);
    const messages = errors.map((error) => error.message);
    expect(messages).toHaveLength(calls.length);
    expect(messages[0]).toMatch(/tags\.__proto__.*may not be named `__proto__`/);
    expect(messages[1]).toMatch(/tags\.csat/);
    expect(messages[2]).toMatch(/tags must name at least one tag/);
    expect(messages[3]).toMatch(/tags/);
    expect(messages[4]).toMatch(/tags/);
    expect(messages[5]).toMatch(/conversation_id must be a non-empty string/);
    expect(messages[5]).toMatch(/interaction_id must be a non-empty string/);
    expect(messages[6]).toMatch(/tags\.csat could not be read/);
    expect(messages.every((message) => message.includes('nebuly.tag() params (nothing recorded)'))).toBe(true);
    // None of them reached the interaction.
    expect(sentTags('conversation')).toEqual([undefined]);
  });

  it("the client's mask runs on the tags endpoint's body (kind 'tags'), fail closed", async () => {
    const kinds: string[] = [];
    const mask: Mask = (payload, context) => {
      kinds.push(context.kind);
      if (context.kind === 'conversation') {
        const body = payload as SendConversationBody;
        const [interaction] = body.conversation.interactions;
        return interaction?.tags?.phone === undefined ? body : { conversation: { ...body.conversation, interactions: [{ ...interaction, tags: { phone: '[PHONE]' } }] } };
      }
      if (context.kind !== 'tags') return payload;
      const body = payload as AddTagsBody;
      if (body.tags.fail === 'yes') throw new Error('mask bug');
      return { ...body, tags: { ...body.tags, email: '[EMAIL]' } };
    };
    const { clients: [a], errors } = await backend('memory', 'conversation', 1, { mask });
    const conversation = a!.conversation({ conversation_id: 'm', end_user: 'u' });
    const turn = conversation.interaction({ input: 'my mail is a@b.c' }).end({ output: 'ok' });
    await a!.flush();
    // Attached to the stored interaction (masked when it was stored): masked on its own,
    // as part of a stored interaction.
    await a!.tag({ conversation_id: 'm', interaction_id: turn.id, tags: { phone: '555-0100' } });
    await conversation.end();
    expect(sentTags('conversation')).toEqual([{ phone: '[PHONE]' }]);
    kinds.length = 0;
    await a!.tag({ conversation_id: 'm', interaction_id: turn.id, tags: { email: 'a@b.c' } });
    await a!.tag({ conversation_id: 'm', interaction_id: turn.id, tags: { fail: 'yes', email: 'a@b.c' } });
    await a!.flush();
    // Each call: first as it would be kept (attached to a stored interaction), then as it is sent.
    expect(kinds).toEqual(['conversation', 'tags', 'conversation', 'tags']);
    const sent = bodies(TAGS) as { tags: Record<string, string>; metadata: Record<string, string> }[];
    expect(sent[0]?.tags).toEqual({ email: '[EMAIL]' });
    // The mask threw: every content field is the placeholder, tag values included.
    expect(sent[1]?.tags).toEqual({ fail: '[MASK FAILED]', email: '[MASK FAILED]' });
    expect(sent[1]?.metadata.input).toBe('[MASK FAILED]');
    // Its input is the placeholder too, so the service finds no interaction for it (422, reported).
    expect(errors.filter((error) => error instanceof MaskError)).toHaveLength(1);
  });
});
