/**
 * A fake LLM provider on loopback, for the examples and tests: answers each request with
 * the JSON or the server-sent events you script, so that the real `openai` and
 * `@anthropic-ai/sdk` clients run end to end with no network and no key.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fake provider received it. */
export interface ProviderRequest {
  method: string;
  /** The path, without the query string: `/v1/chat/completions`. */
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body, parsed; `undefined` when there was none. */
  body: unknown;
}

/** One server-sent event: `event:` (when given) and `data:` (JSON, or a string as it is). */
export interface ServerEvent {
  event?: string;
  data: unknown;
}

/** How the fake provider answers one request. */
export type ProviderReply =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | {
      /** Sent one by one, in order. */
      events: ServerEvent[];
      /** Stop after this many events and keep the connection open, as a slow model does. */
      hangAfter?: number;
    };

/** Answers requests as `answer` says; see {@link ProviderReply}. */
export type Answerer = (request: ProviderRequest, index: number) => ProviderReply;

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

function send(response: ServerResponse, reply: ProviderReply): void {
  if ('json' in reply) {
    response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(reply.json));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const count = reply.hangAfter ?? reply.events.length;
  for (const { event, data } of reply.events.slice(0, count)) {
    const line = typeof data === 'string' ? data : JSON.stringify(data);
    response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${line}\n\n`);
  }
  // A hanging stream stays open until the client goes away.
  if (reply.hangAfter === undefined) response.end();
}

/**
 * Starts the fake provider on a free loopback port.
 *
 * @example
 * ```ts
 * const provider = await startFakeLLMServer(() => ({ json: { id: 'x', choices: [] } }));
 * const openai = new OpenAI({ apiKey: 'fake', baseURL: `${provider.url}/v1` });
 * // …
 * await provider.close();
 * ```
 */
export async function startFakeLLMServer(answer: Answerer) {
  const requests: ProviderRequest[] = [];
  let current = answer;
  const server = createServer((request, response) => {
    readJson(request)
      .then((body) => {
        const received: ProviderRequest = {
          method: request.method ?? 'GET',
          path: (request.url ?? '/').split('?')[0] ?? '/',
          headers: request.headers,
          body,
        };
        requests.push(received);
        send(response, current(received, requests.length - 1));
      })
      .catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: String(error) } }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** `http://127.0.0.1:<port>`. */
    url: `http://127.0.0.1:${port}`,
    /** Every request received, oldest first. */
    requests,
    /** Replaces how requests are answered. */
    answer(next: Answerer) {
      current = next;
    },
    /** Stops the server, dropping connections still open (hanging streams). */
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fake provider, as {@link startFakeLLMServer} returns it. */
export type FakeLLMServer = Awaited<ReturnType<typeof startFakeLLMServer>>;
