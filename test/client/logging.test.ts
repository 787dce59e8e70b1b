import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, type LogFields, type Logger, type LogLevel, NebulyClient } from '../../src/index.js';
import { json, type LocalHandler, type LocalServer, startLocalServer } from '../helpers/local-server.js';

// What the client logs at each level, through a logger of the test's and through the
// default console, over a real socket: never the key, never a body.

const KEY = 'sk-live-SECRET-0123456789';
const PRIVATE = 'PRIVATE-CONVERSATION-TEXT';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Line {
  level: keyof Logger;
  message: string;
  fields: LogFields | undefined;
}

function capturingLogger() {
  const lines: Line[] = [];
  const at = (level: keyof Logger) => (message: string, fields?: LogFields) => {
    lines.push({ level, message, fields });
  };
  const logger: Logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { logger, lines, levels: () => lines.map((line) => line.level) };
}

/** 503 with Retry-After: 0 to the first request, then what every endpoint accepts. */
const failOnceThenAccept: LocalHandler = (_request, res, index) =>
  index === 0
    ? json(res, 503, { detail: 'busy' }, { 'retry-after': '0' })
    : json(res, 202, { users: [], message: 'ok', status: 'accepted' });

async function clientFor(handler: LocalHandler, options: ClientOptions) {
  server = await startLocalServer(handler);
  return new NebulyClient({ apiKey: KEY, baseUrl: server.baseUrl, retryDelayMs: 1, ...options });
}

/** One conversation with private text, sent by the recorder and flushed. */
async function recordOne(nebuly: NebulyClient) {
  const conversation = nebuly.startConversation({ end_user: 'u', conversation_id: 'c-log' });
  conversation.interaction({ input: PRIVATE }).end({ output: PRIVATE });
  await conversation.end();
}

function expectNoSecret(lines: readonly Line[]) {
  const text = JSON.stringify(lines);
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(PRIVATE);
}

describe('logLevel and logger', () => {
  it('debug: each attempt with method, path, status, ms and attempt; each retry and its wait at info', async () => {
    const { logger, lines } = capturingLogger();
    const nebuly = await clientFor(failOnceThenAccept, { logger, logLevel: 'debug' });
    await nebuly.eligibleUsers.list();
    expect(lines.map(({ level, message }) => [level, message.replace(/\d+ ms/, 'N ms')])).toEqual([
      ['debug', 'GET /api/external/eligible-users answered 503 in N ms (attempt 1)'],
      ['info', 'GET /api/external/eligible-users answered 503 with Retry-After (attempt 1 of 5); retrying in N ms'],
      ['debug', 'GET /api/external/eligible-users answered 202 in N ms (attempt 2)'],
    ]);
    expect(lines[0]!.fields).toEqual({
      method: 'GET',
      path: '/api/external/eligible-users',
      status: 503,
      ms: expect.any(Number),
      attempt: 1,
    });
    expect(lines[1]!.fields).toEqual({ method: 'GET', path: '/api/external/eligible-users', status: 503, attempt: 1, waitMs: 0 });
    expect(lines[2]!.fields).toMatchObject({ status: 202, attempt: 2 });
  });

  it('debug: a network failure and a time-out are logged without a status', async () => {
    const { logger, lines } = capturingLogger();
    const nebuly = await clientFor((_request, res) => res.socket?.destroy(), { logger, logLevel: 'debug', maxRetries: 1 });
    await nebuly.eligibleUsers.list().catch(() => undefined);
    expect(lines.map(({ level }) => level)).toEqual(['debug', 'info', 'debug']);
    expect(lines[0]!.message).toMatch(/^GET \/api\/external\/eligible-users failed \(network error\) in \d+ ms \(attempt 1\)$/);
    expect(lines[0]!.fields).toMatchObject({ status: undefined, attempt: 1 });
    expect(lines[1]!.message).toMatch(/failed \(network error\) \(attempt 1 of 2\); retrying in \d+ ms$/);

    await server!.close();
    const hung = capturingLogger();
    const slow = await clientFor(() => undefined, { logger: hung.logger, logLevel: 'debug', maxRetries: 0, timeoutMs: 50 });
    await slow.eligibleUsers.list().catch(() => undefined);
    expect(hung.lines).toHaveLength(1);
    expect(hung.lines[0]!.message).toMatch(/^GET \/api\/external\/eligible-users timed out in \d+ ms \(attempt 1\)$/);
    expect(hung.lines[0]!.fields).toMatchObject({ status: undefined, attempt: 1 });
  });

  it.each<[LogLevel, string[]]>([
    ['debug', ['debug', 'info', 'debug', 'debug', 'warn']],
    ['info', ['info', 'warn']],
    ['warn', ['warn']],
    ['error', []],
    ['off', []],
  ])('%s logs %j for a retried call and a conversation the service refused', async (logLevel, expected) => {
    const { logger, levels, lines } = capturingLogger();
    const nebuly = await clientFor(
      (request, res, index) =>
        request.url.includes('trace_conversation') ? json(res, 400, { detail: 'bad' }) : failOnceThenAccept(request, res, index),
      { logger, logLevel },
    );
    await nebuly.eligibleUsers.list();
    await recordOne(nebuly);
    expect(levels()).toEqual(expected);
    expectNoSecret(lines);
  });

  it('warn: a conversation not delivered, when no onError takes it, with its conversation id', async () => {
    const { logger, lines } = capturingLogger();
    const nebuly = await clientFor((_request, res) => json(res, 400, { detail: 'bad' }), { logger });
    await recordOne(nebuly);
    expect(lines).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(/^DeliveryError: Conversation c-log was not delivered: POST \S+ answered 400: bad$/),
        fields: { error: 'DeliveryError', conversationId: 'c-log' },
      },
    ]);
    expectNoSecret(lines);
  });

  it('with an onError, the failure goes there and is not also logged; an onError that throws is logged at error', async () => {
    const { logger, lines } = capturingLogger();
    const received: string[] = [];
    const nebuly = await clientFor((_request, res) => json(res, 400, { detail: 'bad' }), {
      logger,
      onError: (error) => {
        received.push(error.name);
        throw new Error('handler bug');
      },
    });
    await recordOne(nebuly);
    expect(received).toEqual(['DeliveryError']);
    expect(lines).toEqual([
      { level: 'error', message: 'onError threw while handling a DeliveryError: handler bug', fields: { error: 'DeliveryError' } },
    ]);
  });

  it('takes its level from NEBULY_LOG when the option is not given, the option first', async () => {
    vi.stubEnv('NEBULY_LOG', 'DEBUG');
    const { logger, levels } = capturingLogger();
    const nebuly = await clientFor(failOnceThenAccept, { logger });
    await nebuly.eligibleUsers.list();
    expect(levels()).toEqual(['debug', 'info', 'debug']);

    const quiet = capturingLogger();
    await new NebulyClient({ apiKey: KEY, baseUrl: server!.baseUrl, logger: quiet.logger, logLevel: 'warn' }).eligibleUsers.list();
    expect(quiet.lines).toEqual([]);
  });

  it('logs to the console by default, prefixed, at warn', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const nebuly = await clientFor((_request, res) => json(res, 400, { detail: 'bad' }), {});
    await nebuly.eligibleUsers.list().catch(() => undefined);
    await recordOne(nebuly);
    expect(warn.mock.calls).toEqual([[expect.stringMatching(/^\[nebuly-client\] DeliveryError: Conversation c-log was not delivered: /)]]);
    expect(debug).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
  });

  it('survives a logger that throws', async () => {
    const broken: Logger = {
      error: () => {
        throw new Error('x');
      },
      warn: () => {
        throw new Error('x');
      },
      info: () => {
        throw new Error('x');
      },
      debug: () => {
        throw new Error('x');
      },
    };
    const nebuly = await clientFor(failOnceThenAccept, { logger: broken, logLevel: 'debug' });
    await expect(nebuly.eligibleUsers.list()).resolves.toMatchObject({ users: [] });
  });

  it.each([
    [{ logLevel: 'verbose' }, "`logLevel` must be one of 'off', 'error', 'warn', 'info', 'debug'"],
    [{ logger: { warn: () => undefined } }, '`logger.error` must be a function'],
    [{ logger: 'console' }, '`logger` must be an object'],
    [{ logLevl: 'debug' }, 'did you mean `logLevel`?'],
  ])('refuses %j with a TypeError naming the option', (options, message) => {
    expect(() => new NebulyClient({ apiKey: KEY, ...(options as ClientOptions) })).toThrow(message);
  });

  it('refuses an unknown NEBULY_LOG, naming it', () => {
    vi.stubEnv('NEBULY_LOG', 'loud');
    expect(() => new NebulyClient({ apiKey: KEY })).toThrow("NEBULY_LOG must be one of 'off', 'error', 'warn', 'info', 'debug' (or unset)");
  });
});
