import { afterEach, describe, expect, it } from 'vitest';
import { NebulyClient, ValidationError } from '../../src/index.js';
import { rejection } from '../helpers/caught.js';
import { json, startLocalServer, type LocalServer } from '../helpers/local-server.js';

// Idempotency-Key on the typed client: one per call, the same on each retry; the caller's
// header wins over the option, the option over a new key; only calls that ingest data
// get one unasked.

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(failFirst = 0) {
  server = await startLocalServer((_request, res, index) =>
    index < failFirst ? json(res, 503, {}) : json(res, 202, { users: [], message: 'ok' }),
  );
  return new NebulyClient({ apiKey: 'k-123456', baseUrl: server.baseUrl, retryDelayMs: 1 });
}

const conversation = { conversation: { end_user: 'u', interactions: [] } };
const interaction = {
  interaction: { conversation_id: 'c', input: 'i', output: 'o', time_start: new Date(0), time_end: new Date(1), end_user: 'u' },
  traces: [],
};
const keyOf = (index: number) => server?.requests[index]?.headers['idempotency-key'];

describe('Idempotency-Key', () => {
  it('is a new UUID per call of interactions.send and conversations.send, the same on each retry', async () => {
    const nebuly = await client(1);
    await nebuly.interactions.send(interaction);
    await nebuly.conversations.send(conversation);
    expect(server?.requests).toHaveLength(3);
    expect(keyOf(0)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keyOf(1)).toBe(keyOf(0));
    expect(keyOf(2)).not.toBe(keyOf(0));
  });

  it('is on interactions.addTags too, which ingests: one per call, the same on each retry', async () => {
    const nebuly = await client(1);
    const tags = { tags: { csat: '5' }, metadata: { end_user: 'u', time_start: '2026-01-01T00:00:00.000Z' } };
    await nebuly.interactions.addTags(tags);
    await nebuly.interactions.addTags(tags);
    expect(server?.requests).toHaveLength(3);
    expect(keyOf(0)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(1)).toBe(keyOf(0));
    expect(keyOf(2)).not.toBe(keyOf(0));
  });

  it('is the idempotencyKey request option when given', async () => {
    const nebuly = await client(1);
    await nebuly.conversations.send(conversation, { idempotencyKey: 'order-7-conversation' });
    expect([keyOf(0), keyOf(1)]).toEqual(['order-7-conversation', 'order-7-conversation']);
  });

  it("is the caller's own idempotency-key header, of any case, over the option", async () => {
    const nebuly = await client();
    await nebuly.conversations.send(conversation, { headers: { 'Idempotency-Key': 'from-header' }, idempotencyKey: 'from-option' });
    expect(keyOf(0)).toBe('from-header');
  });

  it('is not sent unasked on calls that do not ingest data', async () => {
    const nebuly = await client();
    await nebuly.eligibleUsers.list();
    await nebuly.interactions.delete({ filters: [] });
    expect(keyOf(0)).toBeUndefined();
    expect(keyOf(1)).toBeUndefined();
  });

  it.each([[''], ['two words'], ['x'.repeat(256)], [7]])('refuses idempotencyKey %j, naming the option, sending nothing', async (key) => {
    const nebuly = await client();
    const error = await rejection(nebuly.conversations.send(conversation, { idempotencyKey: key as string }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('idempotencyKey must be a string of 1 to 255 visible ASCII characters');
    expect(server?.requests).toHaveLength(0);
  });
});

describe('Idempotency-Key on the recorder’s deliveries', () => {
  it('is on every delivery, the same on each retry of it, another for the next conversation', async () => {
    const nebuly = await client(1);
    for (const end_user of ['a', 'b']) {
      const conversation = nebuly.startConversation({ end_user });
      conversation.interaction({ input: 'hi' }).end({ output: 'hello' });
      await expect(conversation.end()).resolves.toMatchObject({ status: 'delivered' });
    }
    expect(server?.requests).toHaveLength(3);
    expect(keyOf(0)).toBeDefined();
    expect(keyOf(1)).toBe(keyOf(0));
    expect(keyOf(2)).not.toBe(keyOf(0));
  });
});
