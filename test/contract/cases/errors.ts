import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  NotFoundError,
  PayloadTooLargeError,
  UnprocessableEntityError,
} from '../../../src/index.js';
import { REFERENCE_PATHS } from '../../../src/reference-server/index.js';
import { interactionParams } from '../fixtures.js';
import { authorized, KEY_A, PROJECT_A, useTarget, type TargetFactory } from '../target.js';
import { rejection } from '../../helpers/caught.js';

/**
 * A fetch that removes `interaction.end_user` from the body on its way out: how a server
 * stricter than the client (a newer API version) looks to the client.
 */
function fetchWithoutEndUser(): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = JSON.parse(await request.text()) as { interaction: Record<string, unknown> };
    delete body.interaction['end_user'];
    return globalThis.fetch(new Request(request, { body: JSON.stringify(body) }));
  };
}


export function errorCases(factory: TargetFactory): void {
  describe('errors', () => {
    const target = useTarget(factory);

    it('401 {"detail": text} without an API key, before anything is stored', async () => {
      const response = await target().fetch(REFERENCE_PATHS.interaction, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(interactionParams({ input: 'Hi' })),
      });

      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toEqual({ detail: expect.stringContaining('Missing API key') });
      expect(target().store.listInteractions(PROJECT_A)).toEqual([]);
    });

    it('401 AuthenticationError with an unknown key, which appears nowhere in the answer', async () => {
      const unknownKey = 'canary-unknown-key-4f1c';
      const error = await rejection(target().client(unknownKey).eligibleUsers.list());

      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ status: 401, body: { detail: 'Invalid API key' } });
      expect(JSON.stringify(target().requests.all())).not.toContain(unknownKey);
    });

    it('401 for a key sent with a scheme other than Bearer', async () => {
      const response = await target().fetch(REFERENCE_PATHS.eligibleUsers, { headers: { authorization: `Basic ${KEY_A}` } });
      expect(response.status).toBe(401);
    });

    it('422 UnprocessableEntityError with the FastAPI body when the server finds a field missing', async () => {
      const client = target().client(KEY_A, { fetch: fetchWithoutEndUser() });
      const error = await rejection(client.interactions.send(interactionParams({ input: 'Hi' })));

      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect(error).toMatchObject({
        status: 422,
        body: { detail: [{ loc: ['body', 'interaction', 'end_user'], msg: 'is required', type: 'missing' }] },
      });
      expect(target().store.listInteractions(PROJECT_A)).toEqual([]);
    });

    it('422 names every bad field by its full path, down into trace steps', async () => {
      const params = interactionParams({ input: 'Hi' });
      const body = {
        ...params,
        traces: [{ model: 'gpt-4o', messages: [{ role: 'robot', content: 'x' }], output: 'y' }],
        user_feedback: [{ slug: 'thumbs_sideways' }],
      };
      const response = await target().fetch(REFERENCE_PATHS.interaction, {
        method: 'POST',
        headers: authorized(),
        body: JSON.stringify(body),
      });

      expect(response.status).toBe(422);
      const { detail } = (await response.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
      expect(detail.map((item) => item.loc)).toEqual([
        ['body', 'traces', 0, 'messages', 0, 'role'],
        ['body', 'user_feedback', 0, 'slug'],
      ]);
      expect(detail.every((item) => typeof item.msg === 'string' && item.msg !== '' && item.type !== '')).toBe(true);
    });

    it('422 for a time_range whose end is before its start, naming time_range.end', async () => {
      const response = await target().fetch(REFERENCE_PATHS.deleteInteractions, {
        method: 'POST',
        headers: authorized(),
        body: JSON.stringify({ time_range: { start: '2026-03-02T00:00:00Z', end: '2026-03-01T00:00:00Z' } }),
      });

      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ detail: [{ loc: ['body', 'time_range', 'end'] }] });
    });

    it('422 loc ["body"] for an empty body', async () => {
      const response = await target().fetch(REFERENCE_PATHS.conversation, { method: 'POST', headers: authorized() });

      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ detail: [{ loc: ['body'], msg: 'is required', type: 'missing' }] });
    });

    it('400 {"detail": text} for malformed JSON', async () => {
      const response = await target().fetch(REFERENCE_PATHS.eligibleUsers, {
        method: 'POST',
        headers: authorized(),
        body: '{"users": [',
      });

      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail: 'Request body is not valid JSON' });
      expect(target().requests.last()?.body).toBe('{"users": [');
    });

    it('404 {"detail": "Not Found"} for an unknown path; NotFoundError through the client', async () => {
      const response = await target().fetch('/api/external/nothing-here', { headers: authorized() });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ detail: 'Not Found' });

      const misplaced = target().client(KEY_A, { baseUrl: `${target().baseUrl}/wrong-prefix` });
      await expect(misplaced.eligibleUsers.list()).rejects.toBeInstanceOf(NotFoundError);
    });

    it.each([
      ['GET', REFERENCE_PATHS.interaction, 'POST'],
      ['PATCH', REFERENCE_PATHS.platformUsers, 'GET, PUT, POST, DELETE'],
      ['GET', REFERENCE_PATHS.variants, 'POST'],
      ['POST', REFERENCE_PATHS.exportInteractions, 'GET'],
      ['PATCH', REFERENCE_PATHS.eligibleUsers, 'GET, POST, PUT, DELETE'],
      ['GET', REFERENCE_PATHS.deleteInteractions, 'POST'],
    ])('405 with an Allow header for %s %s', async (method, path, allow) => {
      const response = await target().fetch(path, { method, headers: authorized() });

      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      expect(await response.json()).toEqual({ detail: 'Method Not Allowed' });
    });

    it('413 PayloadTooLargeError for a body over 1 MiB, and nothing stored', async () => {
      const huge = interactionParams({ input: 'x'.repeat(1_100_000) });
      const error = await rejection(target().client().interactions.send(huge));

      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect(error).toMatchObject({ status: 413, body: { detail: expect.stringContaining('1048576 bytes') } });
      expect(target().store.listInteractions(PROJECT_A)).toEqual([]);
    });
  });

  describe('errors with a small body limit', () => {
    const limit = 1024;
    const target = useTarget(factory, { bodyLimitBytes: limit });

    function streamOf(bytes: number): ReadableStream<Uint8Array> {
      return new ReadableStream({
        start(controller) {
          // Several chunks, and no Content-Length: only the bytes read can tell the size.
          for (let sent = 0; sent < bytes; sent += 256) controller.enqueue(new Uint8Array(Math.min(256, bytes - sent)).fill(0x20));
          controller.close();
        },
      });
    }

    it('413 when a chunked body grows past the limit, judged by the bytes read', async () => {
      const response = await target().fetch(REFERENCE_PATHS.eligibleUsers, {
        method: 'POST',
        headers: authorized(),
        body: streamOf(limit + 1),
        duplex: 'half',
      } as RequestInit);

      expect(response.status).toBe(413);
    });

    it('a body of exactly the limit is taken', async () => {
      const body = `{"users": []}${' '.repeat(limit - 13)}`;
      expect(new TextEncoder().encode(body).byteLength).toBe(limit);
      const response = await target().fetch(REFERENCE_PATHS.eligibleUsers, { method: 'POST', headers: authorized(), body });

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ users: [] });
    });
  });
}
