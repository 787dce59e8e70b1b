import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConnectionError, NebulyClient } from '../../src/index.js';
import { redactError, REDACTED, redactText } from '../../src/core/redact.js';
import { rejection, thrown } from '../helpers/caught.js';

const KEY = 'nb-CANARY-7d3f1a9e-secret';

/** Every way an error can be looked at: message, stack, properties, cause chain, inspect, JSON. */
function everythingIn(error: unknown): string {
  const seen: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && depth < 10; depth += 1) {
    seen.push(
      String(current),
      String((current as Error).stack),
      inspect(current, { depth: 10, showHidden: true, getters: true, customInspect: true }),
      JSON.stringify(current, Object.getOwnPropertyNames(current as object)),
    );
    current = (current as Error).cause;
  }
  return seen.join('\n');
}

/** What a careless fetch wrapper throws: the request and its headers, everywhere. */
function leakyFetchError(init: RequestInit | undefined): Error {
  const authorization = new Headers(init?.headers).get('authorization') ?? '';
  const inner = Object.assign(new Error(`socket hang up (${authorization})`), { code: 'ECONNRESET' });
  const error = new Error(`request failed with headers ${JSON.stringify({ authorization })}`, { cause: inner });
  return Object.assign(error, {
    headers: { authorization },
    request: new Request('http://x', { headers: { authorization } }),
    [inspect.custom]: () => `LeakyError ${authorization}`,
  });
}



describe('no API key in connection errors from a custom fetch', () => {
  it.each([
    ['an Error carrying the Authorization header', (init: RequestInit | undefined) => leakyFetchError(init), true],
    ['a string with the header', (init: RequestInit | undefined) => `boom ${new Headers(init?.headers).get('authorization')}`, true],
    ['a plain object with the header', (init: RequestInit | undefined) => ({ headers: init?.headers }), false],
  ])('%s: ConnectionError, its cause and inspect output hold no key', async (_, makeError, quoted) => {
    const nebuly = new NebulyClient({
      apiKey: KEY,
      baseUrl: 'http://127.0.0.1:9',
      maxRetries: 0,
      fetch: (input, init) => {
        // ky passes a Request whose headers hold the key.
        throw makeError(input instanceof Request ? { headers: input.headers } : init);
      },
    });
    const error = await rejection(nebuly.eligibleUsers.list());

    expect(error).toBeInstanceOf(ConnectionError);
    const text = everythingIn(error);
    expect(text).not.toContain(KEY);
    if (quoted) expect(text).toContain(REDACTED);
  });

  it('keeps what helps: the message, the name, code-like properties and the cause chain', () => {
    const cause = Object.assign(new Error(`connect ECONNREFUSED; key ${KEY}`), { code: 'ECONNREFUSED', port: 9 });
    const original = Object.assign(new TypeError('fetch failed', { cause }), { request: { KEY } });
    const copy = redactError(original, KEY);

    expect(copy.name).toBe('TypeError');
    expect(copy.message).toBe('fetch failed');
    expect(copy).not.toHaveProperty('request');
    expect(copy.cause).toMatchObject({ message: `connect ECONNREFUSED; key ${REDACTED}`, code: 'ECONNREFUSED', port: 9 });
  });

  it('survives what cannot be read: a revoked Proxy, a getter that throws, a cycle', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(redactError(revoked.proxy, KEY).message).toBe('a value that cannot be printed');

    const hostile = new Error('outer');
    Object.defineProperty(hostile, 'code', { enumerable: true, get: () => { throw new Error(KEY); } });
    (hostile as { cause?: unknown }).cause = hostile;
    const copy = redactError(hostile, KEY);
    expect(copy.message).toBe('outer');
    expect(copy.cause).toBeUndefined();
  });
});

describe('no API key in constructor errors', () => {
  it('a key passed as region is not echoed', () => {
    const error = thrown(() => new NebulyClient({ apiKey: 'another-valid-key', region: KEY as 'us' }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('unknown region');
    expect(everythingIn(error)).not.toContain(KEY);
  });

  it('a key passed as baseUrl is not echoed', () => {
    const error = thrown(() => new NebulyClient({ apiKey: 'another-valid-key', baseUrl: KEY }));
    expect((error as Error).message).toContain('`baseUrl` (or NEBULY_BASE_URL) must start with http:// or https://');
    expect(everythingIn(error)).not.toContain(KEY);
  });

  it('a key pasted as an option name is not echoed by the unknown-option error', () => {
    const error = thrown(() => new NebulyClient({ apiKey: 'another-valid-key', [KEY]: true } as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/unknown option \(a \d+-character name, not shown\)/);
    expect(everythingIn(error)).not.toContain(KEY);
  });
});

describe('options of the wrong type', () => {
  it.each([
    [{ apiKey: 5 }, '`apiKey` must be a string (got number)'],
    [{ apiKey: KEY, region: 5 }, '`region` must be a string (got number)'],
    [{ apiKey: KEY, baseUrl: {} }, '`baseUrl` must be a string (got object)'],
    [{ apiKey: KEY, fetch: 'fetch' }, '`fetch` must be a function (got string)'],
    [{ apiKey: KEY, onError: 1 }, '`onError` must be a function (got number)'],
    [{ apiKey: KEY, headers: 'x' }, '`headers` must be an object (got string)'],
    [{ apiKey: KEY, recorder: null }, '`recorder` must be an object (got null)'],
    [null, '`options` must be an object (got null)'],
  ])('%o: TypeError naming the option', (options, message) => {
    const error = thrown(() => new NebulyClient(options as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`nebuly-client: ${message}`);
  });

  it('a getter or Proxy that throws: TypeError naming the option', () => {
    const getter = {
      apiKey: KEY,
      get timeoutMs(): number {
        throw new Error('nope');
      },
    };
    expect(() => new NebulyClient(getter)).toThrow(new TypeError('nebuly-client: `timeoutMs` could not be read (a getter or Proxy threw)'));
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(() => new NebulyClient({ apiKey: KEY, recorder: revoked.proxy })).toThrow(
      new TypeError('nebuly-client: `recorder` could not be read (a getter or Proxy threw)'),
    );
    expect(() => new NebulyClient(revoked.proxy)).toThrow(TypeError);
  });
});

describe('redactText', () => {
  const key = 'nb-a&b<c>"d/e+f?g=h';

  it('replaces the key however a page or a body escaped it', () => {
    for (const form of [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key), 'nb-a&amp;b&lt;c&gt;&quot;d/e+f?g=h']) {
      expect(redactText(`before ${form} after`, key)).toBe(`before ${REDACTED} after`);
    }
  });

  it('replaces its base64 forms, standard and URL-safe, wherever it sits in a longer base64 text', () => {
    for (const prefix of ['', 'x', 'xy', 'Authorization: Bearer ']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${prefix}${key}!`).toString(encoding);
        expect(redactText(encoded, key)).toContain(REDACTED);
      }
    }
  });

  it('leaves a text without the key as it is, and searches for no key under 4 characters', () => {
    expect(redactText('nothing to see', key)).toBe('nothing to see');
    expect(redactText('a key of k', 'k')).toBe('a key of k');
  });
});
