import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient } from '../client.js';
import { APIError, NebulyError } from '../core/errors.js';
import { DeliveryError, QueueFullError, RecordingError } from '../recorder/errors.js';
import { createReferenceServer, type ReferenceServer } from '../reference-server/node.js';
import { REFERENCE_PATHS } from '../reference-server/routes.js';
import { writeDeadLetters } from 'nebuly-client/node';

const KEY = 'dead-letter-test-key';
const PROJECT = 'dead-letters';
let dir: string;
let server: ReferenceServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nebuly-dead-letters-'));
  server = await createReferenceServer({ apiKeys: { [KEY]: PROJECT } });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The request bodies of the file's records, as compact JSON, in file order. */
const lines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.stringify((JSON.parse(line) as { body: unknown }).body));
const records = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

function payload(index: number, size = 10): string {
  return JSON.stringify({ conversation: { end_user: `u-${index}`, interactions: [{ input: 'x'.repeat(size) }] } });
}

describe('writeDeadLetters', () => {
  it('keeps the conversations the service refused, one request body a line, and they can be sent again', async () => {
    const path = join(dir, 'refused.jsonl');
    const deadLetters = writeDeadLetters(path);
    const nebuly = new NebulyClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0, onError: deadLetters });
    const fault = server.faults.add({ status: 422, path: REFERENCE_PATHS.conversation, times: Infinity });

    const ends = Array.from({ length: 12 }, (_, index) => {
      const conversation = nebuly.startConversation({ end_user: `user-${index}` });
      conversation.interaction({ input: `question ${index}` }).end({ output: 'answer' });
      return conversation.end();
    });
    await Promise.all(ends);
    await deadLetters.flush();

    const written = await lines(path);
    expect(written).toHaveLength(12);
    expect(written.map((line) => JSON.parse(line).conversation.end_user).sort()).toEqual(
      Array.from({ length: 12 }, (_, index) => `user-${index}`).sort(),
    );
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    fault.remove();
    for (const line of written) await nebuly.conversations.send(JSON.parse(line));
    expect((await readFile(path, 'utf8')).startsWith('\n{"nebuly_dead_letter":1,')).toBe(true);
    expect(server.store.listInteractions(PROJECT)).toHaveLength(12);
    await nebuly.shutdown();
  });

  it('appends under many concurrent calls without interleaving, in call order, large bodies included', async () => {
    const path = join(dir, 'concurrent.jsonl');
    const deadLetters = writeDeadLetters(path);
    const second = writeDeadLetters(path); // another handler on the same file shares its queue
    const cause = new APIError(503, '', new Headers(), 'POST', REFERENCE_PATHS.conversation);
    const expected: string[] = [];
    for (let index = 0; index < 300; index += 1) {
      const body = payload(index, index % 10 === 0 ? 200_000 : 50);
      expected.push(body);
      const error =
        index % 2 === 0
          ? new DeliveryError({ conversationId: `c-${index}`, payload: body }, cause)
          : new QueueFullError([{ conversationId: `c-${index}`, payload: body }], 'maxQueuedConversations', 10);
      (index % 3 === 0 ? second : deadLetters)(error);
    }
    await Promise.all([deadLetters.flush(), second.flush()]);

    expect(await lines(path)).toEqual(expected);
  });

  it('writes every conversation of a QueueFullError burst, one line each, in order', async () => {
    const path = join(dir, 'burst.jsonl');
    const deadLetters = writeDeadLetters(path);
    const burst = [1, 2, 3].map((index) => ({ conversationId: `c-${index}`, payload: payload(index) }));
    deadLetters(new QueueFullError(burst, 'maxQueuedBytes', 100));
    await deadLetters.flush();
    expect(await lines(path)).toEqual([payload(1), payload(2), payload(3)]);
  });

  it('keeps the idempotency key and conversation id of each conversation with its body', async () => {
    const path = join(dir, 'keys.jsonl');
    const deadLetters = writeDeadLetters(path);
    deadLetters(new DeliveryError({ conversationId: 'c-1', payload: payload(1), idempotencyKey: 'key-1' }, new NebulyError('x')));
    deadLetters(new QueueFullError([{ conversationId: 'c-2', payload: payload(2), idempotencyKey: 'key-2' }], 'maxQueuedBytes', 1));
    deadLetters(new DeliveryError({ conversationId: 'c-3', payload: payload(3) }, new NebulyError('never sent')));
    await deadLetters.flush();

    expect(await records(path)).toEqual([
      { nebuly_dead_letter: 1, idempotency_key: 'key-1', conversation_id: 'c-1', body: JSON.parse(payload(1)) },
      { nebuly_dead_letter: 1, idempotency_key: 'key-2', conversation_id: 'c-2', body: JSON.parse(payload(2)) },
      { nebuly_dead_letter: 1, conversation_id: 'c-3', body: JSON.parse(payload(3)) },
    ]);
  });

  it('writes a payload with line breaks as one line', async () => {
    const path = join(dir, 'pretty.jsonl');
    const deadLetters = writeDeadLetters(path);
    const pretty = JSON.stringify({ conversation: { end_user: 'u', interactions: [] } }, null, 2);
    deadLetters(new DeliveryError({ conversationId: 'c', payload: pretty }, new NebulyError('refused')));
    await deadLetters.flush();
    expect(await lines(path)).toEqual(['{"conversation":{"end_user":"u","interactions":[]}}']);
  });

  it('hands other errors on, reports a failed write without throwing, and keeps appending after it', async () => {
    const others: NebulyError[] = [];
    const failures: string[] = [];
    const missing = join(dir, 'created-later');
    const path = join(missing, 'x.jsonl');
    const deadLetters = writeDeadLetters(path, {
      onOtherError: (error) => {
        others.push(error);
        throw new Error('a throwing onOtherError is not thrown on');
      },
      onWriteError: (error, conversationId) => {
        failures.push(`${conversationId}: ${(error as NodeJS.ErrnoException).code}`);
        throw new Error('a throwing onWriteError breaks nothing');
      },
    });
    const recording = new RecordingError('conversation_ended', 'ended');
    expect(() => deadLetters(recording)).not.toThrow();
    expect(() => deadLetters(new DeliveryError({ conversationId: 'c-1', payload: payload(1) }, new NebulyError('x')))).not.toThrow();
    await deadLetters.flush();
    expect(others).toEqual([recording]);
    expect(failures).toEqual(['c-1: ENOENT']);

    // The same file's queue goes on after the failed write (and the throwing onWriteError).
    await mkdir(missing);
    deadLetters(new DeliveryError({ conversationId: 'c-2', payload: payload(2) }, new NebulyError('x')));
    await deadLetters.flush();
    expect(await lines(path)).toEqual([payload(2)]);
  });
});
