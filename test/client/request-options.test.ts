import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  ConnectionError,
  InternalServerError,
  NebulyClient,
  type RequestOptions,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
} from '../../src/index.js';
import { json, type LocalHandler, type LocalServer, startLocalServer } from '../helpers/local-server.js';

// The last argument of every method, over a real socket: what reaches the wire, and
// what each override changes for that call alone.

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: LocalHandler) {
  server = await startLocalServer(handler);
  return server;
}

/** A client whose own settings would retry four times and wait 30 s: each test overrides them per call. */
const client = (baseUrl: string) =>
  new NebulyClient({ apiKey: 'the-key', baseUrl, retryDelayMs: 1, headers: { 'x-team': 'client' } });

const users = { users: [{ end_user: 'u-1', tags: {}, active_from: '2026-01-01' }] };
const conversation = { conversation: { end_user: 'u', interactions: [] } };

/** Every method of the resources, called with `options` last. */
const METHODS: Record<string, (nebuly: NebulyClient, options: RequestOptions) => Promise<unknown>> = {
  'interactions.send': (n, o) =>
    n.interactions.send(
      { interaction: { conversation_id: 'c', end_user: 'u', input: 'i', output: 'o', time_start: new Date(0), time_end: new Date(1) }, traces: [] },
      o,
    ),
  'interactions.delete': (n, o) => n.interactions.delete({}, o),
  'conversations.send': (n, o) => n.conversations.send(conversation, o),
  'eligibleUsers.insert': (n, o) => n.eligibleUsers.insert(users, o),
  'eligibleUsers.update': (n, o) => n.eligibleUsers.update(users, o),
  'eligibleUsers.delete': (n, o) => n.eligibleUsers.delete({ users: ['u-1'] }, o),
  'eligibleUsers.list': (n, o) => n.eligibleUsers.list(o),
  'platformUsers.insert': (n, o) => n.platformUsers.insert(users, o),
  'platformUsers.update': (n, o) => n.platformUsers.update(users, o),
  'platformUsers.list': (n, o) => n.platformUsers.list(o),
};

/** What every endpoint accepts. */
const accept: LocalHandler = (_request, res) => json(res, 200, { users: [], message: 'ok' });

describe('request options', () => {
  it.each(Object.keys(METHODS))('%s puts the call’s headers on the wire, over the client’s', async (name) => {
    const { baseUrl, requests } = await serve(accept);
    await METHODS[name]!(client(baseUrl), { headers: { 'x-request-id': 'r-42', 'X-Team': 'call' } });
    expect(requests).toHaveLength(1);
    const { headers } = requests[0]!;
    expect(headers['x-request-id']).toBe('r-42');
    expect(headers['x-team']).toBe('call');
    expect(headers.authorization).toBe('Bearer the-key');
  });

  it('leaves the next call without the previous call’s headers', async () => {
    const { baseUrl, requests } = await serve(accept);
    const nebuly = client(baseUrl);
    await nebuly.eligibleUsers.list({ headers: { 'x-request-id': 'r-1' } });
    await nebuly.eligibleUsers.list();
    expect(requests[1]!.headers['x-request-id']).toBeUndefined();
    expect(requests[1]!.headers['x-team']).toBe('client');
  });

  it.each(['Authorization', 'content-type', 'accept'])('refuses a call header that would replace %s, sending nothing', async (name) => {
    const { baseUrl, requests } = await serve(accept);
    const sent = client(baseUrl).eligibleUsers.insert(users, { headers: { [name]: 'Bearer another-key' } });
    await expect(sent).rejects.toThrow(ValidationError);
    await expect(sent).rejects.toThrow(`Invalid request options: headers cannot set \`${name.toLowerCase()}\``);
    await expect(sent).rejects.not.toThrow('another-key');
    expect(requests).toHaveLength(0);
  });

  it('holds the client’s headers to the same rule, at construction', () => {
    let thrown: unknown;
    try {
      new NebulyClient({ apiKey: 'the-key', headers: { Authorization: 'Bearer another-key' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe(
      'nebuly-client: `headers` cannot set `authorization`: the SDK sets it on every request, from `apiKey` (for another API key, create another client)',
    );
  });

  it('times out an attempt after the call’s timeoutMs, not the client’s', async () => {
    const { baseUrl, requests } = await serve(() => undefined); // never answers
    const error = await client(baseUrl)
      .eligibleUsers.list({ timeoutMs: 100, maxRetries: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('GET /api/external/eligible-users got no answer within 100 ms (2 attempts)');
    expect((error as TimeoutError).attempts).toBe(2);
    // The message names the call's 100 ms: the client's 30 s was not used. No clock here.
    expect(requests).toHaveLength(2);
  });

  it('tries once with maxRetries: 0, where the client would retry four times', async () => {
    const { baseUrl, requests } = await serve((_request, res) => json(res, 503, { detail: 'busy' }));
    const error = await client(baseUrl)
      .conversations.send(conversation, { maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).attempts).toBe(1);
    expect((error as Error).message).toBe('POST /event-ingestion/api/v2/events/trace_conversation answered 503 after 1 attempt: busy');
    expect(requests).toHaveLength(1);
  });

  it('rejects with AbortError when the signal aborts an attempt in flight', async () => {
    const controller = new AbortController();
    const { baseUrl, requests } = await serve(() => controller.abort()); // aborts once the request arrived
    const error = await client(baseUrl)
      .eligibleUsers.list({ signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).attempts).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it('rejects with AbortError when the signal aborts the wait before a retry, sending nothing more', async () => {
    const controller = new AbortController();
    const { baseUrl, requests } = await serve((_request, res) => {
      json(res, 503, { detail: 'busy' }, { 'retry-after': '30' });
      setTimeout(() => controller.abort(), 50);
    });
    const error = await client(baseUrl)
      .eligibleUsers.list({ signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).message).toBe('GET /api/external/eligible-users was aborted after 1 attempt');
    expect(requests).toHaveLength(1);
  });

  it('sends nothing when the signal has already aborted', async () => {
    const { baseUrl, requests } = await serve(accept);
    const error = await client(baseUrl)
      .eligibleUsers.list({ signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).attempts).toBe(0);
    expect(requests).toHaveLength(0);
  });

  it.each([
    [{ maxRetry: 0 }, 'maxRetry is not a request option; did you mean `maxRetries`?'],
    [{ timeoutMs: -1 }, 'timeoutMs must be a number of milliseconds from 0 to 2147483647'],
    [{ maxRetries: 1.5 }, 'maxRetries must be a whole number, zero or more'],
    [{ signal: {} }, 'signal must be an AbortSignal'],
    [{ headers: 'x' }, 'headers must be an object (got string)'],
    [{ headers: { 'x-id': 'a\nb' } }, 'headers has a name or value an HTTP header cannot carry'],
    [null, '(root) must be an object (got null)'],
  ])('rejects %j with a ValidationError naming the option, sending nothing', async (options, message) => {
    const { baseUrl, requests } = await serve(accept);
    const sent = client(baseUrl).eligibleUsers.list(options as RequestOptions);
    await expect(sent).rejects.toThrow(ValidationError);
    await expect(sent).rejects.toThrow(`Invalid request options: ${message}`);
    expect(requests).toHaveLength(0);
  });

  it('rejects options or a signal whose traps throw with a ValidationError, never the trap’s error', async () => {
    const { baseUrl, requests } = await serve(accept);
    const trap = () => {
      throw new Error('trap');
    };
    const nebuly = client(baseUrl);
    await expect(nebuly.eligibleUsers.list({ signal: new Proxy({} as AbortSignal, { get: trap }) })).rejects.toThrow(
      'Invalid request options: signal must be an AbortSignal',
    );
    await expect(nebuly.eligibleUsers.list(new Proxy({}, { ownKeys: trap }))).rejects.toThrow(
      'Invalid request options: (root) could not be read (a getter or Proxy threw)',
    );
    expect(requests).toHaveLength(0);
  });

  it('names every bad option at once', async () => {
    const { baseUrl } = await serve(accept);
    const error = await client(baseUrl)
      .eligibleUsers.list({ maxRetries: -1, timeoutMs: 'soon' } as unknown as RequestOptions)
      .catch((e: unknown) => e);
    expect((error as ValidationError).issues.map((issue) => issue.pathText)).toEqual(['timeoutMs', 'maxRetries']);
  });
});

describe('attempts, in every error after retries', () => {
  it('counts them in the message and in `attempts` of a 5xx', async () => {
    const { baseUrl } = await serve((_request, res) => json(res, 503, { detail: 'busy' }));
    const error = await client(baseUrl).eligibleUsers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toBe('GET /api/external/eligible-users answered 503 after 5 attempts: busy');
    expect((error as InternalServerError).attempts).toBe(5);
  });

  it('keeps a status that is never retried as it was: one attempt, not counted in the message', async () => {
    const { baseUrl } = await serve((_request, res) => json(res, 401, { detail: 'Invalid API key' }));
    const error = await client(baseUrl).eligibleUsers.list().catch((e: unknown) => e);
    expect((error as Error).message).toBe('GET /api/external/eligible-users answered 401: Invalid API key');
    expect((error as InternalServerError).attempts).toBe(1);
  });

  it('counts them for a connection that fails every time', async () => {
    const { baseUrl } = await serve((_request, res) => res.socket?.destroy());
    const error = await client(baseUrl)
      .eligibleUsers.list({ maxRetries: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).attempts).toBe(3);
    expect((error as Error).message).toContain('failed after 3 attempts');
  });

  it('counts them for an unexpected body that came after retries', async () => {
    const { baseUrl } = await serve((_request, res, index) =>
      index < 2 ? json(res, 502, { detail: 'bad gateway' }) : json(res, 200, { users: 'not a list' }),
    );
    const error = await client(baseUrl).eligibleUsers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).attempts).toBe(3);
    expect((error as Error).message).toMatch(/^GET \/api\/external\/eligible-users answered 200 after 3 attempts with an unexpected body: users /);
  });
});
