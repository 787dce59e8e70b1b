import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';
import type { HttpMethod } from '../endpoints.js';

/**
 * One attempt as a transport sends it: everything already decided (URL, headers as a
 * plain object of lower-case names, the body's bytes or text), and how long it may take.
 *
 * @example
 * ```ts
 * const request: WireRequest = { url, method: 'POST', headers: { 'content-type': 'application/json' }, body, timeoutMs: 30_000 };
 * ```
 */
export interface WireRequest {
  url: string;
  method: HttpMethod;
  headers: Readonly<Record<string, string>>;
  body?: string | Uint8Array | undefined;
  /**
   * The attempt's time-out, headers and body (`0`: none): past it the attempt rejects
   * with `ATTEMPT_TIMED_OUT` (core/attempt.ts) and its request is cut off.
   */
  timeoutMs: number;
  /** The caller's signal: aborting it rejects the attempt with its reason and cuts the request off. */
  signal?: AbortSignal | undefined;
}

/**
 * One attempt's response, its body read in full.
 *
 * @example
 * ```ts
 * const { status, headers, text } = await transport.send(request);
 * ```
 */
export interface WireResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined with `, `. */
  headers: Record<string, string>;
  text: string;
  /** The transport followed a redirect to get this response (a user's `fetch` may). */
  redirected: boolean;
}

/**
 * How the SDK reaches the network: `send` for the recorder's deliveries (no `Request`
 * built; one attempt, its time-out and the caller's signal enforced by the transport
 * in the way cheapest for it), `fetch` for ky, which the typed client sends through. A
 * redirect is never followed by the SDK's own transports.
 *
 * @example
 * ```ts
 * const response = await transport.send({ url, method: 'GET', headers, timeoutMs: 30_000, signal });
 * ```
 */
export interface Transport {
  /** What the transport is, for logs and tests: `node:http`, `fetch`, or `custom fetch`. */
  readonly name: 'node:http' | 'fetch' | 'custom fetch';
  send(request: WireRequest): Promise<WireResponse>;
  fetch: typeof globalThis.fetch;
}

/**
 * Node's HTTP modules, taken at run time with `process.getBuiltinModule` (Node 20.16
 * and later) rather than imported: no build of the package then names a `node:` module,
 * so a bundle for a worker or a browser stays free of them.
 *
 * @example
 * ```ts
 * const modules = nodeModules(); // undefined outside Node
 * ```
 */
export interface NodeModules {
  readonly http: typeof Http;
  /** Read only by a route that needs TLS: on Node it is loaded at that first read. */
  readonly https: typeof Https;
  /** Read only by a tunnel through a proxy: on Node it is loaded at that first read. */
  readonly tls: typeof Tls;
}
