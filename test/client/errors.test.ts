import { inspect } from 'node:util';
import { HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NebulyClient,
  NebulyError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { createRecordingServer } from '../helpers/recording-server.js';

const BASE = 'https://backend.nebuly.com';
const CANARY = 'nb-CANARY-5f2c9e1d-secret';
const service = createRecordingServer(BASE);
beforeAll(service.listen);
afterEach(service.reset);
afterAll(service.close);

const client = () => new NebulyClient({ apiKey: CANARY, baseUrl: BASE, maxRetries: 0 });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Every way an error can be looked at: message, stack, properties, cause chain, JSON. */
function everythingIn(error: unknown): string {
  return [
    String(error),
    (error as Error).stack,
    inspect(error, { depth: 10, showHidden: true, getters: true }),
    JSON.stringify(error, Object.getOwnPropertyNames(error as object)),
  ].join('\n');
}

describe('error classes, chosen by status', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [418, APIError],
  ])('%i → %s', async (status, ErrorClass) => {
    service.answer(() => HttpResponse.json({ detail: 'nope' }, { status, headers: { 'x-request-id': 'r-1' } }));
    const error = await failure(client().eligibleUsers.list());
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(NebulyError);
    expect(error).toMatchObject({ status, body: { detail: 'nope' }, name: ErrorClass.name });
    expect((error as APIError).headers.get('x-request-id')).toBe('r-1');
  });

  it('turns a FastAPI text detail into the message', async () => {
    service.answer(() => HttpResponse.json({ detail: 'Invalid API key' }, { status: 401 }));
    const error = await failure(client().eligibleUsers.list());
    expect((error as Error).message).toBe('GET /api/external/eligible-users answered 401: Invalid API key');
  });

  it('turns a FastAPI validation detail into a message naming each field', async () => {
    const body = {
      detail: [
        { loc: ['body', 'users', 0, 'active_from'], msg: 'field required', type: 'value_error.missing' },
        { loc: ['body', 'users', 1, 'tags'], msg: 'value is not a valid dict', type: 'type_error.dict' },
      ],
    };
    service.answer(() => HttpResponse.json(body, { status: 422 }));
    const error = await failure(
      client().eligibleUsers.insert({ users: [{ end_user: 'u', tags: {}, active_from: '2026-01-01' }] }),
    );
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as APIError).body).toEqual(body);
    expect((error as Error).message).toBe(
      'POST /api/external/eligible-users answered 422: users[0].active_from: field required; users[1].tags: value is not a valid dict',
    );
  });

  it('keeps a text body as it came', async () => {
    service.answer(() => HttpResponse.text('upstream exploded', { status: 502 }));
    const error = await failure(client().platformUsers.list());
    expect(error).toMatchObject({ status: 502, body: 'upstream exploded' });
    expect((error as Error).message).toContain('upstream exploded');
  });

  it('reports a connection failure as ConnectionError', async () => {
    service.answer(() => HttpResponse.error());
    const error = await failure(client().platformUsers.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/^GET \/api\/external\/platform-users failed after 1 attempt/);
  });
});

describe('the API key never leaks', () => {
  it.each([
    ['an API error', () => HttpResponse.json({ detail: 'bad' }, { status: 401 })],
    ['a server error', () => HttpResponse.text('boom', { status: 500 })],
    ['a network failure', () => HttpResponse.error()],
    ['an unexpected body', () => HttpResponse.json({ nope: 1 })],
  ])('not in %s', async (_name, reply) => {
    service.answer(reply);
    const error = await failure(client().eligibleUsers.list());
    expect(error).toBeInstanceOf(NebulyError);
    expect(everythingIn(error)).not.toContain(CANARY);
  });

  it('not in a validation error', async () => {
    const error = await failure(
      // @ts-expect-error: the point is to send something invalid
      client().eligibleUsers.insert({ users: [{ end_user: CANARY.slice(0, 3) }] }),
    );
    expect(everythingIn(error)).not.toContain(CANARY);
  });

  it('not in the error for a key with a line break inside', () => {
    const pasted = `${CANARY}\nsecond-line`;
    let error: unknown;
    try {
      new NebulyClient({ apiKey: pasted, baseUrl: BASE });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'nebuly-client: the API key has a space, a line break or a non-ASCII character inside; check how it was copied.',
    );
    expect(everythingIn(error)).not.toContain(CANARY);
  });

  it('not in the error for a header fetch cannot carry', () => {
    expect(() => new NebulyClient({ apiKey: CANARY, baseUrl: BASE, headers: { 'x-team': 'a\nb' } })).toThrow(
      'nebuly-client: `headers` has a name or value an HTTP header cannot carry',
    );
  });

  it('not in the client object as it prints', () => {
    const nebuly = client();
    expect(inspect(nebuly, { depth: 10 })).not.toContain(CANARY);
    expect(JSON.stringify(nebuly)).not.toContain(CANARY);
  });
});
