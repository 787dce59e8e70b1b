import type { ClientOptions } from '../../../src/core/options.js';
import { resolveClientOptions } from '../../../src/core/resolve-options.js';
import { ENDPOINTS } from '../../../src/core/endpoints.js';
import { HttpCore } from '../../../src/core/http.js';
import type { AcceptedResponse } from '../../../src/core/http-types.js';
import type { RequestOptions } from '../../../src/core/request-options.js';

/**
 * The transports every behaviour of the HTTP layer is checked on: ky over the platform's
 * fetch (other runtimes), Node's keep-alive `node:http` (the default on Node), and a
 * `fetch` of the user's (which always wins).
 */
export const TRANSPORTS = {
  'ky + fetch': { internals: { transport: 'fetch' as const }, options: {} },
  'node:http': { internals: {}, options: {} },
  'custom fetch': {
    internals: {},
    options: { fetch: (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init) } as ClientOptions,
  },
};

export type TransportName = keyof typeof TRANSPORTS;

/** An `HttpCore` on the named transport, against `baseUrl`. */
export function core(name: TransportName, baseUrl: string, options: ClientOptions = {}): HttpCore {
  const { internals, options: own } = TRANSPORTS[name];
  return new HttpCore(resolveClientOptions({ apiKey: 'test-key-123456', baseUrl, retryDelayMs: 1, logLevel: 'off', ...own, ...options }), internals);
}

const BODY = { conversation: { end_user: 'u', interactions: [] } };

/**
 * The two ways a body is sent: the typed client's call (through ky) and the recorder's
 * `deliver` (straight to the transport). Each posts a conversation; `deliver` is given
 * the key the recorder would give.
 */
export const PATHS = {
  call: (http: HttpCore, options?: RequestOptions): Promise<AcceptedResponse> => http.call('sendConversation', BODY, options),
  deliver: (http: HttpCore, options: RequestOptions = {}): Promise<AcceptedResponse> =>
    http.deliver({
      path: ENDPOINTS.sendConversation.path,
      body: new TextEncoder().encode(JSON.stringify(BODY)),
      idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(),
      signal: options.signal,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    }),
};

export type PathName = keyof typeof PATHS;

/** Every transport with every path, for `describe.each`. */
export const MATRIX = (Object.keys(TRANSPORTS) as TransportName[]).flatMap((transport) =>
  (Object.keys(PATHS) as PathName[]).map((path) => [`${transport}, ${path}`, transport, path] as const),
);
