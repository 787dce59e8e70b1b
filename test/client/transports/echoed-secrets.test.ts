import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeliveryError, NebulyClient, type NebulyError } from '../../../src/index.js';
import { rejection } from '../../helpers/caught.js';
import { startLocalServer, type LocalServer } from '../../helpers/local-server.js';
import { core, MATRIX, PATHS, TRANSPORTS } from './harness.js';

// A server or proxy that echoes the Authorization header back, every way one can: the key
// must not reach anything the SDK derives from the answer.

const KEY = 'nb-secret-key-0123456789abcdef';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
/** `text` as a JSON writer that escapes freely would put it in a string: `\u0073` or `\u004E`. */
const escapedJson = (text: string) =>
  [...text]
    .map((char, index) => {
      const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
      return index % 3 === 0 ? `\\u${hex}` : index % 3 === 1 ? `\\u${hex.toUpperCase()}` : char;
    })
    .join('');

const ECHOES = {
  '500 JSON detail and a response header': (auth: string) => ({
    status: 500,
    headers: { 'content-type': 'application/json', 'x-echo-authorization': auth, 'x-request-id': `id-${auth}` },
    body: JSON.stringify({ detail: `upstream refused header Authorization: ${auth}` }),
  }),
  '422 FastAPI detail with the input': (auth: string) => ({
    status: 422,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ detail: [{ loc: ['header', 'authorization'], msg: `bad ${auth}`, input: { authorization: auth } }] }),
  }),
  '502 HTML error page': (auth: string) => ({
    status: 502,
    headers: { 'content-type': 'text/html' },
    body: `<html><body><h1>Bad gateway</h1><pre>GET / HTTP/1.1\nAuthorization: ${auth}\n</pre></body></html>`,
  }),
  'a JSON writer that escapes the key its own way (\\u0073, \\u004E)': (auth: string) => ({
    status: 403,
    headers: { 'content-type': 'application/json' },
    body: `{"detail":"refused ${escapedJson(auth)}","input":{"authorization":"${escapedJson(auth)}"}}`,
  }),
  'base64 of the request headers, at every alignment': (auth: string) => ({
    status: 401,
    headers: { 'www-authenticate': `Bearer error="${b64url(`x${auth}`)}"`, 'x-debug': b64(`Authorization: ${auth}`) },
    body: JSON.stringify({ detail: [b64(auth), b64(`a${auth}`), b64(`ab${auth}`)].join(' ') }),
  }),
};

/** Everything a user or a log could see of an error. */
function everything(error: unknown): string {
  const e = error as NebulyError & { body?: unknown; headers?: Headers };
  return [
    e.message,
    e.stack,
    inspect(error, { depth: 20, showHidden: true }),
    JSON.stringify(e.body),
    JSON.stringify([...(e.headers ?? new Headers())]),
    inspect(e.cause, { depth: 20 }),
  ].join('\n');
}

/** `text` with JSON's escapes undone: `\u0073` and PHP's `\/`. */
function unescaped(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))).replaceAll('\\/', '/');
}

/** The key, as is or escaped, or any run of 12 base64 characters that encodes part of it. */
function leaks(text: string, key = KEY): boolean {
  if (text.includes(key) || unescaped(text).includes(key)) return true;
  for (const token of text.match(/[A-Za-z0-9+/_-]{12,}={0,2}/g) ?? []) {
    for (const shift of ['', 'A', 'AA', 'AAA']) {
      const decoded = Buffer.from(shift + token.replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1');
      if (decoded.includes(KEY.slice(0, 10)) || decoded.includes(KEY.slice(-10))) return true;
    }
  }
  return false;
}

const servers: LocalServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function echoing(echo: (auth: string) => { status: number; headers: Record<string, string>; body: string }) {
  const server = await startLocalServer((request, res) => {
    const { status, headers, body } = echo(String(request.headers.authorization));
    res.writeHead(status, headers).end(body);
  });
  servers.push(server);
  return server;
}

it('the check itself sees the key in every echo, plain and encoded', () => {
  for (const echo of Object.values(ECHOES)) {
    const { headers, body } = echo(`Bearer ${KEY}`);
    expect(leaks(JSON.stringify(headers) + body)).toBe(true);
  }
});

it('keeps a key with / and + out of the error when a server writes them as PHP and .NET do', async () => {
  const key = 'nb/secret+key-0123456789abcdef';
  const server = await echoing((auth) => ({
    status: 500,
    headers: { 'content-type': 'application/json' },
    body: `{"php":"${auth.replaceAll('/', '\\/')}","dotnet":"${auth.replaceAll('+', '\\u002B')}"}`,
  }));
  const nebuly = new NebulyClient({ apiKey: key, baseUrl: server.baseUrl, maxRetries: 0 });
  const error = await rejection(nebuly.eligibleUsers.list());
  expect(leaks(everything(error), key)).toBe(false);
  expect(JSON.stringify((error as NebulyError & { body?: unknown }).body)).toBe('{"php":"Bearer [redacted]","dotnet":"Bearer [redacted]"}');
});

describe.each(MATRIX)('%s', (_name, transport, path) => {
  it.each(Object.entries(ECHOES))('keeps the key out of the error: %s', async (_echo, echo) => {
    const server = await echoing(echo);
    const error = await rejection(PATHS[path](core(transport, server.baseUrl, { apiKey: KEY, maxRetries: 0 })));
    expect((error as Error).name).not.toBe('Error');
    expect(leaks(everything(error))).toBe(false);
    expect(everything(error)).toContain('[redacted]');
  });
});

describe.each(Object.keys(TRANSPORTS).filter((name) => name !== 'ky + fetch'))('the recorder on %s', (transport) => {
  const own = TRANSPORTS[transport as keyof typeof TRANSPORTS].options;

  it.each(Object.entries(ECHOES))('keeps the key out of DeliveryError and its cause: %s', async (_echo, echo) => {
    const server = await echoing(echo);
    const errors: NebulyError[] = [];
    const nebuly = new NebulyClient({ ...own, apiKey: KEY, baseUrl: server.baseUrl, maxRetries: 0, onError: (error) => errors.push(error) });
    nebuly.startConversation({ end_user: 'u' }).interaction({ input: 'hi' }).end({ output: 'hello' });
    await nebuly.shutdown();
    const delivery = errors.find((error) => error instanceof DeliveryError);
    expect(delivery).toBeDefined();
    expect(leaks(everything(delivery) + everything(delivery?.cause))).toBe(false);
  });

  it('keeps the key out of the default logger', async () => {
    const server = await echoing(ECHOES['500 JSON detail and a response header']);
    const lines: unknown[] = [];
    for (const level of ['error', 'warn', 'info', 'debug', 'log'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(...args));
    }
    const nebuly = new NebulyClient({ ...own, apiKey: KEY, baseUrl: server.baseUrl, maxRetries: 1, logLevel: 'debug' });
    nebuly.startConversation({ end_user: 'u' }).interaction({ input: 'hi' }).end({ output: 'hello' });
    await nebuly.shutdown();
    const logged = lines.map((line) => (typeof line === 'string' ? line : inspect(line, { depth: 20 }))).join('\n');
    expect(logged).toContain('answered 500');
    expect(leaks(logged)).toBe(false);
  });
});
