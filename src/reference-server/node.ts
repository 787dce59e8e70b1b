import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceApp, type ReferenceApp, type ReferenceState } from './app.js';
import { pageResponse } from './local-page.js';
import type { ReferenceOptions } from './options.js';

/** Options of {@link createReferenceServer}. */
export interface ReferenceServerOptions extends ReferenceOptions {
  /**
   * The port to listen on; `0` picks a free one (read it from `url` or `port`).
   * @default 0
   */
  port?: number | undefined;
  /**
   * The interface to listen on. Loopback by default, so nothing outside the machine can
   * reach a server that accepts well-known development keys.
   * @default '127.0.0.1'
   */
  host?: string | undefined;
}

/** A running reference server. */
export interface ReferenceServer extends ReferenceState {
  /** The base URL to give the client: `http://127.0.0.1:54321`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /**
   * Stops the server: stops accepting, cuts open connections (delayed requests included)
   * and resolves once it is closed. Idempotent.
   */
  close(): Promise<void>;
}

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);
/** Methods the Fetch API refuses to put in a `Request` (it throws): given 405 without one. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The request body as a web stream that reads the socket only as fast as it is consumed.
 * Cancelling (the body limit was hit) discards the rest instead of destroying the socket,
 * so the client still gets its 413.
 */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.pause();
      incoming.on('data', (chunk: Buffer) => {
        if (cancelled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.on('end', () => {
        if (!cancelled) controller.close();
      });
      incoming.on('error', (error) => {
        if (!cancelled) controller.error(error);
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      cancelled = true;
      incoming.resume();
    },
  });
}

function toRequest(incoming: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = incoming.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (!METHODS_WITHOUT_BODY.has(method.toUpperCase())) {
    init.body = bodyStream(incoming);
    init.duplex = 'half';
  }
  return new Request(new URL(incoming.url ?? '/', origin), init);
}

async function respond(app: ReferenceApp, incoming: IncomingMessage, outgoing: ServerResponse, origin: string, projects: readonly string[]) {
  const abort = new AbortController();
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) abort.abort();
  });
  const method = (incoming.method ?? 'GET').toUpperCase();
  if (FORBIDDEN_METHODS.has(method)) {
    incoming.resume();
    await send(outgoing, app.refuseMethod(method, new URL(incoming.url ?? '/', origin).pathname));
    return;
  }
  // The page at `/` is the server's own, not the API's: not in the request log.
  const page = pageResponse(incoming, new URL(incoming.url ?? '/', origin).pathname, app.store, projects);
  if (page !== undefined) {
    incoming.resume();
    await send(outgoing, page);
    return;
  }
  const request = toRequest(incoming, origin, abort.signal);
  const response = await app.handle(request, new URL(request.url).pathname);
  if (response.type === 'error') {
    incoming.socket.destroy();
    return;
  }
  // Whatever of the request body was not read (413, 401, 404, ...) is discarded, not
  // buffered, so the client can finish sending and the connection serves its next request.
  if (request.body !== null && !request.bodyUsed) await request.body.cancel().catch(() => undefined);
  incoming.resume();
  await send(outgoing, response);
}

async function send(outgoing: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.statusCode = response.status;
  response.headers.forEach((value, name) => outgoing.setHeader(name, value));
  outgoing.setHeader('content-length', body.byteLength);
  outgoing.end(body);
}

function formatOrigin(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Starts the reference server on a real socket (`node:http`), over an in-memory store:
 * every endpoint of the service, API keys mapped to projects, the service's errors, and
 * fault injection. Node only; use `createReferenceHandler` elsewhere.
 *
 * @example
 * ```ts
 * import { createReferenceServer } from 'nebuly-client/reference-server';
 *
 * const server = await createReferenceServer({ apiKeys: { 'dev-key': 'dev-project' } });
 * const nebuly = new NebulyClient({ apiKey: 'dev-key', baseUrl: server.url });
 * await nebuly.eligibleUsers.insert({ users: [{ end_user: 'u-1', tags: {}, active_from: '2026-01-01' }] });
 * console.log(server.store.listUsers('dev-project'));
 * await server.close();
 * ```
 */
export async function createReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const app = createReferenceApp(rest);
  const projects = [...new Set(Object.values(rest.apiKeys))];
  let origin = '';
  const server = createServer((incoming, outgoing) => {
    respond(app, incoming, outgoing, origin, projects).catch((error: unknown) => {
      console.error('reference server: could not respond', error);
      outgoing.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  origin = formatOrigin(address);

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    port: address.port,
    store: app.store,
    faults: app.faults,
    requests: app.requests,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
