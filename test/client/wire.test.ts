import { HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient } from '../../src/index.js';
import { createRecordingServer } from '../helpers/recording-server.js';

const BASE = 'https://backend.nebuly.com';
const service = createRecordingServer(BASE);
beforeAll(service.listen);
afterEach(service.reset);
afterAll(service.close);

const client = () => new NebulyClient({ apiKey: 'nb-test-key', baseUrl: BASE, maxRetries: 0 });

const user = { end_user: 'u-1', tags: { department: 'sales' }, active_from: '2026-01-01' };
const usersAnswer = { users: [user] };

function onlyRequest() {
  expect(service.requests).toHaveLength(1);
  return service.requests[0]!;
}

function expectJsonHeaders(request: { headers: Headers }) {
  expect(request.headers.get('authorization')).toBe('Bearer nb-test-key');
  expect(request.headers.get('content-type')).toBe('application/json');
  expect(request.headers.get('accept')).toBe('application/json');
}

describe('the bytes on the wire', () => {
  it('interactions.send posts the v3 body with ISO timestamps and no undefined fields', async () => {
    service.answer(() => new Response(null, { status: 202 }));
    const result = await client().interactions.send({
      interaction: {
        conversation_id: 'c-1',
        input: 'What is our refund policy?',
        output: '30 days.',
        time_start: new Date('2026-03-01T10:00:00.000Z'),
        time_end: '2026-03-01T10:00:02Z',
        end_user: 'hash-1',
        tags: { country: 'IT' },
      },
      traces: [
        {
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'What is our refund policy?' }],
          output: '30 days.',
          input_tokens: 12,
          cost: 30,
        },
        { source: 'policies-db', input: 'refund policy', outputs: ['Refunds within 30 days'] },
        { model: 'text-embedding-3-small', input: 'refund policy' },
      ],
      user_feedback: [{ slug: 'rating', value: 5 }],
      anonymize: false,
    });

    const request = onlyRequest();
    expect(request.method).toBe('POST');
    expect(request.url.href).toBe(`${BASE}/event-ingestion/api/v3/events/trace_interaction`);
    expectJsonHeaders(request);
    expect(request.body).toBe(
      JSON.stringify({
        interaction: {
          conversation_id: 'c-1',
          input: 'What is our refund policy?',
          output: '30 days.',
          time_start: '2026-03-01T10:00:00.000Z',
          time_end: '2026-03-01T10:00:02.000Z',
          end_user: 'hash-1',
          tags: { country: 'IT' },
        },
        traces: [
          {
            model: 'gpt-4o',
            messages: [{ role: 'user', content: 'What is our refund policy?' }],
            output: '30 days.',
            input_tokens: 12,
            cost: 30,
          },
          { source: 'policies-db', input: 'refund policy', outputs: ['Refunds within 30 days'] },
          { model: 'text-embedding-3-small', input: 'refund policy' },
        ],
        user_feedback: [{ slug: 'rating', value: 5 }],
        anonymize: false,
      }),
    );
    expect(request.body).not.toContain('null');
    expect(result).toEqual({ status: 202, body: null });
  });

  it('interactions.delete posts filters and time range, and answers the message', async () => {
    service.answer(() => HttpResponse.json({ message: 'Interactions deleted' }));
    const result = await client().interactions.delete({
      filters: [
        { kind: 'tag', tag: 'country', values: ['IT', 'FR'] },
        { kind: 'user', values: ['hash-1'] },
      ],
      time_range: { start: new Date('2026-01-01T00:00:00Z'), end: '2026-02-01T00:00:00Z' },
    });
    const request = onlyRequest();
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe('/api/external/projects/delete-interactions');
    expectJsonHeaders(request);
    expect(JSON.parse(request.body)).toEqual({
      filters: [
        { kind: 'tag', tag: 'country', values: ['IT', 'FR'] },
        { kind: 'user', values: ['hash-1'] },
      ],
      time_range: { start: '2026-01-01T00:00:00.000Z', end: '2026-02-01T00:00:00.000Z' },
    });
    expect(result).toEqual({ message: 'Interactions deleted' });
  });

  it('interactions.delete with no argument sends the required empty filter list', async () => {
    service.answer(() => HttpResponse.json({ message: 'ok' }));
    await client().interactions.delete();
    expect(onlyRequest().body).toBe('{"filters":[]}');
  });

  it('conversations.send posts the v2 bulk body', async () => {
    service.answer(() => HttpResponse.text('OK'));
    const body = {
      conversation: {
        end_user: 'hash-1',
        interactions: [
          {
            input: 'Hi',
            output: 'Hello!',
            time_start: '2026-03-01T10:00:00.000Z',
            time_end: '2026-03-01T10:00:01.000Z',
            tags: { channel: 'web' },
            feedback_actions: [{ slug: 'thumbs_up' as const }],
            trace: [{ model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hi' }], output: 'Hello!' }],
          },
        ],
      },
    };
    const result = await client().conversations.send(body);
    const request = onlyRequest();
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe('/event-ingestion/api/v2/events/trace_conversation');
    expectJsonHeaders(request);
    expect(request.body).toBe(JSON.stringify(body));
    expect(result).toEqual({ status: 200, body: 'OK' });
  });

  it.each([
    ['insert', 'POST'],
    ['update', 'PUT'],
  ] as const)('eligibleUsers.%s sends %s with the users', async (method, verb) => {
    service.answer(() => HttpResponse.json(usersAnswer));
    const result = await client().eligibleUsers[method]({
      users: [{ ...user, active_from: new Date('2026-01-01T00:00:00Z'), active_to: '2026-12-31' }],
    });
    const request = onlyRequest();
    expect(request.method).toBe(verb);
    expect(request.url.pathname).toBe('/api/external/eligible-users');
    expectJsonHeaders(request);
    expect(request.body).toBe(
      JSON.stringify({
        users: [
          {
            end_user: 'u-1',
            tags: { department: 'sales' },
            active_from: '2026-01-01T00:00:00.000Z',
            active_to: '2026-12-31',
          },
        ],
      }),
    );
    expect(result).toEqual(usersAnswer);
  });

  it('eligibleUsers.delete sends DELETE with the end_user ids', async () => {
    service.answer(() => HttpResponse.json({ message: 'Users deleted' }));
    const result = await client().eligibleUsers.delete({ users: ['u-1', 'u-2'] });
    const request = onlyRequest();
    expect(request.method).toBe('DELETE');
    expect(request.url.pathname).toBe('/api/external/eligible-users');
    expectJsonHeaders(request);
    expect(request.body).toBe('{"users":["u-1","u-2"]}');
    expect(result).toEqual({ message: 'Users deleted' });
  });

  it.each([
    ['eligibleUsers', '/api/external/eligible-users'],
    ['platformUsers', '/api/external/platform-users'],
  ] as const)('%s.list sends GET with no body', async (resource, path) => {
    service.answer(() => HttpResponse.json(usersAnswer));
    const result = await client()[resource].list();
    const request = onlyRequest();
    expect(request.method).toBe('GET');
    expect(request.url.pathname).toBe(path);
    expect(request.headers.get('authorization')).toBe('Bearer nb-test-key');
    expect(request.headers.has('content-type')).toBe(false);
    expect(request.body).toBe('');
    expect(result).toEqual(usersAnswer);
  });

  it('platformUsers.update sends POST with the users', async () => {
    service.answer(() => HttpResponse.json(usersAnswer));
    await client().platformUsers.update({ users: [user] });
    const request = onlyRequest();
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe('/api/external/platform-users');
    expectJsonHeaders(request);
    expect(request.body).toBe(JSON.stringify({ users: [user] }));
  });

  it('platformUsers.insert sends PUT with the users', async () => {
    service.answer(() => HttpResponse.json(usersAnswer));
    await client().platformUsers.insert({ users: [user] });
    const request = onlyRequest();
    expect(request.method).toBe('PUT');
    expect(request.url.pathname).toBe('/api/external/platform-users');
    expectJsonHeaders(request);
    expect(request.body).toBe(JSON.stringify({ users: [user] }));
  });

  it('sends extra headers', async () => {
    const nebuly = new NebulyClient({ apiKey: 'nb-test-key', baseUrl: BASE, headers: { 'x-team': 'support' } });
    await nebuly.platformUsers.list().catch(() => undefined);
    const request = onlyRequest();
    expect(request.headers.get('x-team')).toBe('support');
    expect(request.headers.get('authorization')).toBe('Bearer nb-test-key');
    expect(request.headers.get('accept')).toBe('application/json');
  });

  it.each([
    ['Authorization', 'Bearer other-secret', 'cannot set `authorization`: the SDK sets it on every request, from `apiKey`'],
    ['ACCEPT', 'text/plain', 'cannot set `accept`: the SDK sets it on every request'],
    ['content-type', 'text/plain', 'cannot set `content-type`: the SDK sets it on every request'],
  ])('refuses a client-level %s header, as a call\'s: a TypeError naming it, never its value', (name, value, message) => {
    const make = () => new NebulyClient({ apiKey: 'nb-test-key', baseUrl: BASE, headers: { 'x-team': 'support', [name]: value } });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(`nebuly-client: \`headers\` ${message}`);
    expect(() => make()).not.toThrow(value);
  });

  it('uses the fetch implementation it is given', async () => {
    const seen: string[] = [];
    const nebuly = new NebulyClient({
      apiKey: 'nb-test-key',
      baseUrl: 'https://proxy.example.test/nebuly',
      fetch: async (input) => {
        seen.push(input instanceof Request ? input.url : String(input));
        return Response.json({ users: [] });
      },
    });
    await expect(nebuly.eligibleUsers.list()).resolves.toEqual({ users: [] });
    expect(seen).toEqual(['https://proxy.example.test/nebuly/api/external/eligible-users']);
    expect(service.requests).toHaveLength(0);
  });
});

describe('responses', () => {
  it('keeps fields the SDK does not know', async () => {
    service.answer(() =>
      HttpResponse.json({ users: [{ ...user, active_to: null, created_at: 'x' }], total: 1 }),
    );
    const result = await client().eligibleUsers.list();
    expect(result).toEqual({ users: [{ ...user, active_to: null, created_at: 'x' }], total: 1 });
  });

  it.each([
    ['an empty body', () => new Response(null, { status: 204 }), { status: 204, body: null }],
    ['JSON', () => HttpResponse.json({ ok: true }, { status: 201 }), { status: 201, body: { ok: true } }],
    ['text', () => HttpResponse.text('accepted', { status: 202 }), { status: 202, body: 'accepted' }],
  ])('takes any 2xx from the ingestion endpoints: %s', async (_name, reply, expected) => {
    service.answer(reply);
    const result = await client().conversations.send({
      conversation: { end_user: 'u', interactions: [] },
    });
    expect(result).toEqual(expected);
  });

  it('rejects a 2xx whose body is not what the spec says, naming the field', async () => {
    service.answer(() => HttpResponse.json({ people: [] }));
    await expect(client().eligibleUsers.list()).rejects.toMatchObject({
      name: 'UnexpectedResponseError',
      status: 200,
      message: expect.stringContaining('users is required'),
    });
  });
});
