import { afterEach, describe, expect, it } from 'vitest';
import { NebulyClient, type NebulyError } from '../../src/index.js';
import { Recorder } from '../../src/recorder/recorder.js';
import { json, type LocalServer, startLocalServer } from '../helpers/local-server.js';
import { FakeTransport } from './fake-transport.js';
import { until } from './setup.js';

// What flush() and shutdown() resolve to: the conversations they waited for, by outcome,
// each counted once. Over a real socket: a service that accepts most conversations,
// answers 400 to those whose end user is `refused`, and never answers `hung` ones.

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client() {
  server = await startLocalServer((request, res) => {
    if (request.body.includes('"end_user":"hung"')) return;
    if (request.body.includes('"end_user":"refused"')) json(res, 400, { detail: 'bad conversation' });
    else json(res, 202, { status: 'accepted' });
  });
  const errors: NebulyError[] = [];
  const nebuly = new NebulyClient({
    apiKey: 'k',
    baseUrl: server.baseUrl,
    retryDelayMs: 1,
    onError: (error) => errors.push(error),
  });
  return { nebuly, errors, requests: server.requests };
}

/** Starts a conversation of one interaction; `invalid` leaves nothing valid in it. */
function record(nebuly: NebulyClient, endUser: string, { invalid = false } = {}) {
  const conversation = nebuly.startConversation({ end_user: endUser });
  conversation.interaction({ input: invalid ? (42 as unknown as string) : 'question' }).end({ output: 'answer' });
  return conversation;
}

describe('flush()', () => {
  it('counts delivered, failed (a 4xx) and dropped (nothing valid) conversations; an empty one is not counted', async () => {
    const { nebuly, errors } = await client();
    void record(nebuly, 'alice').end();
    void record(nebuly, 'bob').end();
    void record(nebuly, 'refused').end();
    void record(nebuly, 'carol', { invalid: true }).end();
    void nebuly.startConversation({ end_user: 'dave' }).end(); // empty
    await expect(nebuly.flush()).resolves.toEqual({ delivered: 2, failed: 1, dropped: 1 });
    expect(errors.map((error) => error.name).sort()).toEqual(['DeliveryError', 'ValidationError']);
  });

  it('counts each conversation once: the next flush reports only what ended since', async () => {
    const { nebuly } = await client();
    await record(nebuly, 'alice').end(); // settled before the flush: still counted by it
    await expect(nebuly.flush()).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
    await expect(nebuly.flush()).resolves.toEqual({ delivered: 0, failed: 0, dropped: 0 });
    void record(nebuly, 'refused').end();
    await expect(nebuly.flush()).resolves.toEqual({ delivered: 0, failed: 1, dropped: 0 });
  });

  it('counts a conversation refused at its start (an invalid end_user) as dropped', async () => {
    const { nebuly, requests } = await client();
    void nebuly.startConversation({ end_user: '' }).end();
    await expect(nebuly.flush()).resolves.toEqual({ delivered: 0, failed: 0, dropped: 1 });
    expect(requests).toHaveLength(0);
  });

  it('leaves what ends during a flush to the next one', async () => {
    const transport = new FakeTransport();
    transport.fallback = 'hold';
    const recorder = new Recorder({ http: transport, onError: () => undefined });
    const first = recorder.startConversation({ end_user: 'u' });
    first.interaction({ input: 'q' }).end({ output: 'a' });
    void first.end();
    const flushed = recorder.flush();
    const second = recorder.startConversation({ end_user: 'u' });
    second.interaction({ input: 'q' }).end({ output: 'a' });
    void second.end();
    await until(() => transport.requests.length === 2);
    // The flush waits for the first alone: it resolves while the second is still held.
    transport.releaseOldest();
    await expect(flushed).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
    transport.releaseAll();
    await expect(recorder.flush()).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
  });
});

describe('shutdown()', () => {
  it('counts the conversations it ended itself, and every call gets the same report', async () => {
    const { nebuly, requests } = await client();
    record(nebuly, 'alice'); // open: shutdown ends and sends them
    record(nebuly, 'refused');
    record(nebuly, 'carol', { invalid: true });
    const report = await nebuly.shutdown();
    expect(report).toEqual({ delivered: 1, failed: 1, dropped: 1 });
    expect(requests).toHaveLength(2);
    await expect(nebuly.shutdown()).resolves.toEqual(report);
  });

  it('counts what was still being sent at its call, not what a flush already counted', async () => {
    const { nebuly } = await client();
    await record(nebuly, 'alice').end();
    await nebuly.flush();
    void record(nebuly, 'bob').end();
    record(nebuly, 'refused');
    await expect(nebuly.shutdown()).resolves.toEqual({ delivered: 1, failed: 1, dropped: 0 });
  });

  it('leaves out what met its fate before the call (a flush before it counts that)', async () => {
    const { nebuly, errors } = await client();
    await record(nebuly, 'refused').end(); // failed, and reported, before the call
    record(nebuly, 'alice');
    await expect(nebuly.shutdown()).resolves.toEqual({ delivered: 1, failed: 0, dropped: 0 });
    expect(errors.map((error) => error.name)).toEqual(['DeliveryError']);
  });

  it('reports zeros after a flush counted everything', async () => {
    const { nebuly } = await client();
    await record(nebuly, 'refused').end();
    await expect(nebuly.flush()).resolves.toEqual({ delivered: 0, failed: 1, dropped: 0 });
    await expect(nebuly.shutdown()).resolves.toEqual({ delivered: 0, failed: 0, dropped: 0 });
  });

  it('counts as failed what its deadline gave up', async () => {
    const { nebuly, errors } = await client();
    record(nebuly, 'alice');
    record(nebuly, 'hung');
    await expect(nebuly.shutdown({ timeoutMs: 300 })).resolves.toEqual({ delivered: 1, failed: 1, dropped: 0 });
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/was not delivered: shutdown\(\) did not finish within 300 ms$/),
    ]);
  });
});
