import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { NebulyClient, NebulyError, ValidationError } from '../../src/index.js';
import { FEEDBACK, ROUTE, SECRET, instances, post } from './setup.js';

const clients: NebulyClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown({ timeoutMs: 1_000 })));
});

/** One instance with a clock the test moves, its conversation `chat-1` and a token for its one turn. */
async function served(origins: string[] = []) {
  let now = Date.parse('2026-05-01T10:00:00Z');
  const made = instances(1, { origins, recorder: { now: () => now } });
  const nebuly = made.clients[0]!;
  clients.push(nebuly);
  const conversation = nebuly.conversation({ conversation_id: 'chat-1', end_user: 'u' });
  const turn = conversation.interaction({ input: 'q' });
  turn.end({ output: 'a' });
  const token = await turn.feedbackToken({ ttlMs: 60_000 });
  return { ...made, nebuly, conversation, turn, token, advance: (ms: number) => (now += ms) };
}

/** Everything a response shows: status, headers, body. */
async function shown(response: Response): Promise<string> {
  return `${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`;
}

async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: string }).error;
}

describe('nebuly.handleFeedback()', () => {
  it('204 for a valid thumbs up, recorded on the interaction', async () => {
    const { nebuly, conversation, token, conversationActions, errors } = await served();
    const response = await nebuly.handleFeedback(post({ token, slug: 'thumbs_up' }));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await conversation.end();
    expect(conversationActions()).toEqual([[{ slug: 'thumbs_up' }]]);
    expect(errors).toEqual([]);
  });

  it.each([
    ['not JSON', '{token', 'the body must be JSON: { token, slug, text?, value? }'],
    ['an array', [], 'the body must be a JSON object'],
    ['no token', { slug: 'thumbs_up' }, '`token` must be the feedback token given with the answer'],
    ['a token of another type', { token: 5, slug: 'thumbs_up' }, '`token` must be the feedback token given with the answer'],
    ['an unknown slug', { token: 'T', slug: 'love' }, '`slug` must be one of thumbs_up, thumbs_down, copy_input, copy_output, paste, comment, regenerate, edit, rating'],
    ['a value on a thumb', { token: 'T', slug: 'thumbs_up', value: 1 }, "`value` is only used with slug 'rating'"],
    ['a value that is no whole number', { token: 'T', slug: 'rating', value: 4.5 }, '`value` must be a whole number'],
    ['a text that is no string', { token: 'T', slug: 'comment', text: 5 }, '`text` must be a string of at most 4000 characters'],
    ['a text too long', { token: 'T', slug: 'comment', text: 'x'.repeat(4001) }, '`text` must be a string of at most 4000 characters'],
    ['an unknown field', { token: 'T', slug: 'thumbs_up', user: 'x' }, '`user` is not a field; the fields are token, slug, text and value'],
  ])('400 naming the field: %s', async (_, body, message) => {
    const { nebuly, token } = await served();
    // 'T' stands for the valid token: the field named is wrong, not the token.
    const withToken = typeof body === 'string' ? body : (JSON.parse(JSON.stringify(body).replace('"T"', JSON.stringify(token))) as unknown);
    const response = await nebuly.handleFeedback(post(withToken));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await errorOf(response)).toBe(message);
  });

  it('401 for a forged, altered, foreign or expired token; nothing recorded, the token never shown', async () => {
    const { nebuly, turn, token, advance, conversation, conversationActions } = await served();
    const other = new NebulyClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', feedbackSecret: 'another-secret-of-at-least-32-characters' });
    const foreign = await other.feedbackToken({ conversation_id: 'chat-1', interaction_id: turn.id });
    const flipped = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
    for (const bad of ['nope', flipped, foreign, token.slice(0, -1)]) {
      const response = await nebuly.handleFeedback(post({ token: bad, slug: 'thumbs_down' }));
      const text = await shown(response);
      expect(response.status).toBe(401);
      expect(text).toContain('the feedback token is not valid');
      expect(text).not.toContain(bad);
    }
    advance(60_000);
    const expired = await nebuly.handleFeedback(post({ token, slug: 'thumbs_down' }));
    expect(expired.status).toBe(401);
    expect(await errorOf(expired)).toBe('the feedback token has expired');
    await conversation.end();
    expect(conversationActions()).toEqual([[]]);
  });

  it('405 with Allow for other methods', async () => {
    const { nebuly } = await served();
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await nebuly.handleFeedback(new Request(ROUTE, { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });

  it('413 over 16 KiB, declared or not: a chunked body that never ends is cut off, not read to its end', async () => {
    const { nebuly, token } = await served();
    const declared = await nebuly.handleFeedback(
      new Request(ROUTE, { method: 'POST', headers: { 'content-length': String(1 << 30) }, body: 'x' }),
    );
    expect(declared.status).toBe(413);
    /** A body that never ends, and what was read of it. */
    const endless = () => {
      const seen = { pulled: 0, cancelled: false };
      const chunk = new TextEncoder().encode(`{"token":"${token}","slug":"comment","text":"${'x'.repeat(1000)}`);
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => void (seen.pulled += 1, controller.enqueue(chunk)),
        cancel: () => void (seen.cancelled = true),
      });
      return { body, seen };
    };
    // No Content-Length (chunked), or one that lies: the reading stops past the limit either way.
    for (const headers of [{}, { 'content-length': '10' }]) {
      const { body, seen } = endless();
      const request = new Request(ROUTE, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
      const response = await nebuly.handleFeedback(request);
      expect(response.status).toBe(413);
      expect(await response.text()).not.toContain(token);
      expect(seen.pulled).toBeLessThan(40);
      expect(seen.cancelled).toBe(true);
    }
  });

  it('CORS: a preflight and a post from an allowed origin get Access-Control-Allow-Origin; a refused one gets none and records nothing', async () => {
    const { nebuly, token, conversation, conversationActions } = await served(['https://page.example']);
    const preflight = (origin: string) =>
      nebuly.handleFeedback(
        new Request(ROUTE, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } }),
      );
    const allowed = await preflight('https://page.example');
    expect(allowed.status).toBe(204);
    expect(Object.fromEntries(allowed.headers)).toMatchObject({
      'access-control-allow-origin': 'https://page.example',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
      vary: 'Origin',
    });
    const refused = await preflight('https://evil.example');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-methods')).toBeNull();

    const fromPage = await nebuly.handleFeedback(post({ token, slug: 'thumbs_up' }, { origin: 'https://page.example' }));
    expect(fromPage.status).toBe(204);
    expect(fromPage.headers.get('access-control-allow-origin')).toBe('https://page.example');
    const fromEvil = await nebuly.handleFeedback(post({ token, slug: 'thumbs_down' }, { origin: 'https://evil.example' }));
    expect(fromEvil.status).toBe(403);
    expect(fromEvil.headers.get('access-control-allow-origin')).toBeNull();
    // The route's own origin, and a caller that sends no Origin (a server, curl), need no listing.
    expect((await nebuly.handleFeedback(post({ token, slug: 'copy_output', text: 'a' }, { origin: 'http://app.test' }))).status).toBe(204);
    expect((await nebuly.handleFeedback(post({ token, slug: 'comment', text: 'ok' }, { origin: null }))).status).toBe(204);
    await conversation.end();
    expect(conversationActions()).toEqual([[{ slug: 'thumbs_up' }, { slug: 'copy_output', text: 'a' }, { slug: 'comment', text: 'ok' }]]);
  });

  it('a token is no licence to flood: a repeated word is recorded once, a changed one again, at most four', async () => {
    const { nebuly, token, conversation, conversationActions } = await served();
    const send = async (body: object) => (await nebuly.handleFeedback(post({ token, ...body }))).status;
    for (let index = 0; index < 50; index += 1) expect(await send({ slug: 'thumbs_up' })).toBe(204);
    expect(await send({ slug: 'thumbs_down' })).toBe(204);
    for (const value of [3, 3, 5, 5, 4, 2, 1]) expect(await send({ slug: 'rating', value })).toBe(204);
    await conversation.end();
    expect(conversationActions()).toEqual([
      [
        { slug: 'thumbs_up' },
        { slug: 'thumbs_down' },
        { slug: 'rating', value: 3 },
        { slug: 'rating', value: 5 },
        { slug: 'rating', value: 4 },
        { slug: 'rating', value: 2 },
      ],
    ]);
  });

  it('feedback on a conversation already sent goes to the feedback endpoint', async () => {
    const { nebuly, token, conversation, bodies } = await served();
    await conversation.end();
    expect((await nebuly.handleFeedback(post({ token, slug: 'rating', value: 5 }))).status).toBe(204);
    expect(bodies(FEEDBACK)).toMatchObject([{ action: { slug: 'rating', value: 5 }, metadata: { input: 'q', output: 'a', end_user: 'u' } }]);
  });
});

describe('minting', () => {
  it('nebuly.feedbackToken() makes the same kind of token as turn.feedbackToken(), for a turn not in hand', async () => {
    const { nebuly, turn, conversation, conversationActions } = await served();
    const token = await nebuly.feedbackToken({ conversation_id: 'chat-1', interaction_id: turn.id });
    expect((await nebuly.handleFeedback(post({ token, slug: 'regenerate' }))).status).toBe(204);
    await conversation.end();
    expect(conversationActions()).toEqual([[{ slug: 'regenerate' }]]);
  });

  it('rejects bad params naming each field', async () => {
    const { nebuly } = await served();
    const error = await nebuly.feedbackToken({ conversation_id: '', interaction_id: 5 as never, ttlMs: 10 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe(
      'Invalid nebuly.feedbackToken() params: conversation_id must be a non-empty string; interaction_id must be a non-empty string; ttlMs must be a whole number of milliseconds from 1000 to 2592000000 (30 days)',
    );
  });

  it('without a secret: minting and handling reject, naming the option', async () => {
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', onError: () => undefined });
    clients.push(nebuly);
    const turn = nebuly.conversation({ conversation_id: 'c', end_user: 'u' }).interaction({ input: 'q' });
    for (const attempt of [turn.feedbackToken(), nebuly.feedbackToken({ conversation_id: 'c', interaction_id: turn.id }), nebuly.handleFeedback(post({}))]) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NebulyError);
      expect((error as Error).message).toMatch(/needs a `feedbackSecret`: pass one of 32 characters or more .* or set NEBULY_FEEDBACK_SECRET/);
    }
  });

  it('turn.feedbackToken() of a startConversation() turn rejects: feedback could not find it', async () => {
    const { nebuly } = await served();
    const turn = nebuly.startConversation({ end_user: 'u' }).interaction({ input: 'q' });
    await expect(turn.feedbackToken()).rejects.toThrow('needs a conversation of `nebuly.conversation({ conversation_id })`');
  });
});

describe('the feedback secret', () => {
  it.each([
    [{ feedbackSecret: 'short' }, '`feedbackSecret` must be a string of 32 characters or more'],
    [{ feedbackSecret: 5 }, '`feedbackSecret` must be a string of 32 characters or more'],
    [{ feedbackOrigins: 'https://a.example' }, "`feedbackOrigins` must be an array of origins such as ['https://app.example.com']"],
    [{ feedbackOrigins: ['https://a.example/'] }, "`feedbackOrigins` must be an array of origins such as ['https://app.example.com']"],
    [{ feedbackOrigins: ['https://a.example/path'] }, "`feedbackOrigins` must be an array of origins such as ['https://app.example.com']"],
  ])('%o: TypeError naming the option, never the value', (options, message) => {
    expect(() => new NebulyClient({ apiKey: 'k', ...options } as never)).toThrow(message);
    try {
      new NebulyClient({ apiKey: 'k', ...options } as never);
    } catch (error) {
      expect(inspect(error)).not.toContain('short');
    }
  });

  it('is read from NEBULY_FEEDBACK_SECRET', async () => {
    process.env.NEBULY_FEEDBACK_SECRET = SECRET;
    try {
      const nebuly = new NebulyClient({ apiKey: 'k' });
      await expect(nebuly.feedbackToken({ conversation_id: 'c', interaction_id: 'i' })).resolves.toMatch(/^[\w-]+$/);
    } finally {
      delete process.env.NEBULY_FEEDBACK_SECRET;
    }
  });

  it('is not in the client, a turn or a handler answer, however looked at', async () => {
    const { nebuly, turn, token } = await served();
    const seen = [
      inspect(nebuly, { depth: 10, showHidden: true, getters: true }),
      inspect(turn, { depth: 10, showHidden: true, getters: true }),
      JSON.stringify(nebuly),
      token,
      await shown(await nebuly.handleFeedback(post({ token, slug: 'nope' }))),
      await shown(await nebuly.handleFeedback(post({ token: SECRET, slug: 'thumbs_up' }))),
    ].join('\n');
    expect(seen).not.toContain(SECRET);
  });

  it('is redacted from what a failing custom fetch throws, as the API key is', async () => {
    const nebuly = new NebulyClient({
      apiKey: 'test-key-123',
      baseUrl: 'http://127.0.0.1:9',
      maxRetries: 0,
      feedbackSecret: SECRET,
      fetch: () => {
        throw new Error(`leaked ${SECRET} and ${Buffer.from(SECRET).toString('base64')}`);
      },
    });
    const error = await nebuly.eligibleUsers.list().catch((caught: unknown) => caught);
    const text = `${String(error)} ${inspect(error, { depth: 10, showHidden: true })}`;
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(text).toContain('[redacted]');
  });
});
