import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';
import type { Buffer as NodeBuffer } from 'node:buffer';
import { watchAttempt } from '../attempt.js';
import { readEnv } from '../env.js';
import { proxyAuthorization, proxyFor, type EnvReader } from './proxy.js';
import { tunnelAgent } from './tunnel.js';
import type { NodeModules, Transport, WireResponse, WireRequest } from './types.js';

export type { NodeModules };

interface NodeScope {
  process?: { getBuiltinModule?: (id: string) => unknown; versions?: Record<string, string | undefined> };
  Deno?: unknown;
  navigator?: { userAgent?: string };
}

/**
 * Node's HTTP modules when the code runs on Node itself; `undefined` elsewhere (Bun,
 * Deno and workerd emulate `node:http` over their own fetch, which they do better
 * directly) and on Node before 20.16, which has no `process.getBuiltinModule`.
 *
 * @example
 * ```ts
 * const transport = nodeModules() === undefined ? fetchTransport(fetch, 'fetch') : nodeTransport(nodeModules()!);
 * ```
 */
export function nodeModules(): NodeModules | undefined {
  const scope = globalThis as NodeScope;
  const { process } = scope;
  if (typeof process?.getBuiltinModule !== 'function' || typeof process.versions?.node !== 'string') return undefined;
  if (process.versions.bun !== undefined || scope.Deno !== undefined || scope.navigator?.userAgent === 'Cloudflare-Workers') {
    return undefined;
  }
  try {
    const load = process.getBuiltinModule.bind(process);
    const http = load('node:http') as typeof Http;
    // `node:https` and `node:tls` take ~10 ms of main-thread CPU to load the first time:
    // only a route that needs TLS (an https: URL or proxy) pays it, not an http:// one.
    let https: typeof Https | undefined;
    let tls: typeof Tls | undefined;
    return {
      http,
      get https() {
        return (https ??= load('node:https') as typeof Https);
      },
      get tls() {
        return (tls ??= load('node:tls') as typeof Tls);
      },
    };
  } catch {
    return undefined;
  }
}

/** How requests to one origin go out: directly, through an HTTP proxy, or tunnelled. */
interface Route {
  module: typeof Http | typeof Https;
  agent: Http.Agent;
  /** The host name to connect to, an IPv6 address without its brackets. */
  host: string;
  port: number;
  /** An HTTP proxy takes the whole URL as the request's target; otherwise just the path. */
  absolute: boolean;
  /** Headers a proxy needs (`host` of the target, `proxy-authorization`). */
  headers: Record<string, string>;
}

// Node's global, named here so that no build imports `node:buffer`.
const { Buffer } = globalThis as unknown as { Buffer: typeof NodeBuffer };

/** How many URLs a transport keeps parsed. */
const MAX_KNOWN_URLS = 64;

/** A body's length in bytes: Node sends a DELETE's body only with one, and never chunks then. */
function lengthOf(body: string | Uint8Array): string {
  return String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
}

function defaultPort(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/** A header object with repeated values joined, as fetch's `Headers` shows them. */
function flatten(headers: Http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** An IPv6 address as a URL writes it, `[::1]`, as a socket takes it, `::1`. */
function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** A response's body as text: the bytes joined first, so that a character split between two chunks decodes whole. */
function textOf(chunks: NodeBuffer | NodeBuffer[] | undefined): string {
  if (chunks === undefined) return '';
  return (Array.isArray(chunks) ? Buffer.concat(chunks) : chunks).toString('utf8');
}

/**
 * The transport for Node: `node:http` / `node:https` with keep-alive agents (idle
 * sockets do not hold the process open), the body written as given, the response read as
 * text; no `Request`, no web streams. Honours `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY`
 * (read once per origin, at its first request): plain HTTP through the proxy in absolute
 * form, HTTPS through a `CONNECT` tunnel. Redirects are never followed.
 *
 * @example
 * ```ts
 * const transport = nodeTransport(nodeModules()!);
 * const response = await transport.send({ url, method: 'POST', headers, body, timeoutMs: 30_000 });
 * ```
 */
export function nodeTransport(modules: NodeModules, env: EnvReader = readEnv): Transport {
  const routes = new Map<string, Route>();
  // A client posts to a handful of URLs: each is parsed once.
  const targets = new Map<string, { route: Route; path: string }>();

  function targetOf(url: string): { route: Route; path: string } {
    const known = targets.get(url);
    if (known !== undefined) return known;
    const parsed = new URL(url);
    const route = routeTo(parsed);
    const target = { route, path: route.absolute ? parsed.href : parsed.pathname + parsed.search };
    if (targets.size >= MAX_KNOWN_URLS) targets.clear();
    targets.set(url, target);
    return target;
  }

  function routeTo(url: URL): Route {
    const known = routes.get(url.origin);
    if (known !== undefined) return known;
    const https = url.protocol === 'https:';
    const proxy = proxyFor(url, env);
    let route: Route;
    if (proxy === undefined) {
      const agent = new (https ? modules.https : modules.http).Agent({ keepAlive: true });
      route = { module: https ? modules.https : modules.http, agent, host: bare(url.hostname), port: defaultPort(url), absolute: false, headers: {} };
    } else if (https) {
      const agent = tunnelAgent(modules, proxy);
      route = { module: modules.https, agent, host: bare(url.hostname), port: defaultPort(url), absolute: false, headers: {} };
    } else {
      const viaTls = proxy.protocol === 'https:';
      const agent = new (viaTls ? modules.https : modules.http).Agent({ keepAlive: true });
      const headers = { host: url.host, ...proxyAuthorization(proxy) };
      route = { module: viaTls ? modules.https : modules.http, agent, host: bare(proxy.hostname), port: defaultPort(proxy), absolute: true, headers };
    }
    routes.set(url.origin, route);
    return route;
  }

  // The attempt's time-out and the caller's signal are watched on the request itself
  // (watchAttempt): no AbortController, race or abort listener of Node's per attempt.
  function send({ url, method, headers, body, timeoutMs, signal }: WireRequest): Promise<WireResponse> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      const { route, path } = targetOf(url);
      const request = route.module.request(
        {
          host: route.host,
          port: route.port,
          path,
          method,
          // As given, not copied to add the route's and the length: set on the request below
          // (adding a field to a copy of an object took V8 ~0.6 µs, a setHeader ~0.1).
          headers,
          agent: route.agent,
        },
        (response) => {
          // Bytes, decoded once at the end: no string decoder made for a body of one chunk.
          let chunks: NodeBuffer | NodeBuffer[] | undefined;
          response.on('data', (chunk: NodeBuffer) => {
            chunks = chunks === undefined ? chunk : Array.isArray(chunks) ? (chunks.push(chunk), chunks) : [chunks, chunk];
          });
          response.on('end', () => {
            unwatch();
            resolve({ status: response.statusCode ?? 0, headers: flatten(response.headers), text: textOf(chunks), redirected: false });
          });
          response.on('error', fail);
        },
      );
      const fail = (error: unknown) => {
        unwatch();
        reject(error);
      };
      // Rejected first, so that the error the destroyed request emits next finds it settled.
      const unwatch = watchAttempt(timeoutMs, signal, (reason) => {
        fail(reason);
        request.destroy();
      });
      for (const name in route.headers) request.setHeader(name, route.headers[name] as string);
      if (body !== undefined) request.setHeader('content-length', lengthOf(body));
      request.on('error', fail);
      request.end(body);
    });
  }

  return {
    name: 'node:http',
    send,
    // What ky sends through: its `Request`, sent by `send`, returned as a `Response`.
    async fetch(input, init) {
      const request = input instanceof Request ? input : new Request(input, init);
      const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      // ky's attempt is timed by the attempt loop around it (withinTimeout): only its signal here.
      const response = await send({ url: request.url, method: request.method as WireRequest['method'], headers, body, timeoutMs: 0, signal: request.signal });
      const empty = response.status === 204 || response.status === 205 || response.status === 304;
      return new Response(empty ? null : response.text, { status: response.status, headers: response.headers });
    },
  };
}
