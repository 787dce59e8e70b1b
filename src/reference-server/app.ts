import { readBody } from './body.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { fingerprintOf, IdempotencyResponses } from './idempotency.js';
import { inspect, isInspectionPath } from './inspection.js';
import { type ReferenceOptions, resolveReferenceOptions } from './options.js';
import { RequestLog } from './request-log.js';
import { detail, json } from './responses.js';
import { findRoutes, SERVED_METHODS } from './routes.js';
import { ReferenceStore } from './store.js';

/** What every way of running the reference exposes: its data, its faults, its request log. */
export interface ReferenceState {
  /** The data, per project: read it to check what the code under test sent. */
  readonly store: ReferenceStore;
  /** Faults to inject into the next requests. */
  readonly faults: FaultInjector;
  /** The requests received, with the raw bodies. */
  readonly requests: RequestLog;
}

/** @internal The one implementation that the web handler, the Node server and MSW wrap. */
export interface ReferenceApp extends ReferenceState {
  /** Responds to a request whose path below the base URL is `path`. `Response.error()` means: drop the connection. */
  handle(request: Request, path: string): Promise<Response>;
  /**
   * Responds 405 to a method no route serves and that a `Request` cannot even carry
   * (`TRACE`, `CONNECT`, `TRACK`): the Node server calls this instead of `handle`.
   */
  refuseMethod(method: string, path: string): Response;
}

/** What serving a request gave: the response, and the request's body as read (`''` when it was not). */
interface Served {
  response: Response;
  requestBody: string;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

function faultResponse(fault: FaultSpec): Response | undefined {
  if (fault.drop === true) return Response.error();
  if (fault.status === undefined) return undefined;
  const headers: Record<string, string> =
    fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
  return detail(fault.status, 'injected fault', headers);
}

function tooLarge(limit: number): Response {
  return detail(413, `Request body is larger than the limit of ${limit} bytes`);
}

function methodNotAllowed(allowed: readonly string[]): Response {
  return detail(405, 'Method Not Allowed', { allow: allowed.join(', ') });
}

/** The first response to a key, given again: same status and body, marked as a replay. */
function replayed(status: number, body: string, contentType: string): Response {
  return new Response(body, { status, headers: { 'content-type': contentType, 'idempotent-replayed': 'true' } });
}

/** @internal Builds the reference: one store, one fault list, one request log, one pipeline. */
export function createReferenceApp(options: ReferenceOptions): ReferenceApp {
  const resolved = resolveReferenceOptions(options);
  const { apiKeys, bodyLimitBytes, onRequest, now } = resolved;
  const store = new ReferenceStore(now, resolved.onStored, resolved.experiments);
  const faults = new FaultInjector(resolved.random);
  const requests = new RequestLog(resolved.maxRecordedRequests, resolved.maxRecordedBytes);
  const idempotency = new IdempotencyResponses(() => now().getTime());
  for (const spec of resolved.faults) faults.add(spec);

  function keyOf(request: Request): string | undefined {
    return BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
  }

  // The order mirrors the real deployment: the infrastructure in front of the service
  // (faults, the body limit) acts before the application routes (404, 405), checks the
  // key (401), and parses (400) and validates (422) the body. A store-first fault lets
  // the request be served, then fails its response.
  async function serve(request: Request, method: string, path: string, project: string | undefined): Promise<Served> {
    const fault = faults.take(method, path);
    if (fault !== undefined && fault.storeFirst !== true) {
      if (fault.delayMs !== undefined) {
        await sleep(fault.delayMs, request.signal);
        // The client gave up during the delay: like a proxy, do not serve it at all.
        if (request.signal.aborted) return { response: Response.error(), requestBody: '' };
      }
      const response = faultResponse(fault);
      if (response !== undefined) return { response, requestBody: '' };
    }
    const served = await route(request, method, path, project);
    return fault?.storeFirst === true ? failAfterServing(fault, served, request.signal) : served;
  }

  async function failAfterServing(fault: FaultSpec, served: Served, signal: AbortSignal): Promise<Served> {
    if (fault.delayMs !== undefined) {
      await sleep(fault.delayMs, signal);
      if (signal.aborted) return { response: Response.error(), requestBody: served.requestBody };
    }
    return { response: faultResponse(fault) ?? served.response, requestBody: served.requestBody };
  }

  async function route(request: Request, method: string, path: string, project: string | undefined): Promise<Served> {
    const declaredLength = Number(request.headers.get('content-length') ?? 0);
    if (declaredLength > bodyLimitBytes) return { response: tooLarge(bodyLimitBytes), requestBody: '' };
    // A method no route serves (TRACE, PATCH, …) is a 405 on every path, never a 404.
    const found = findRoutes(path);
    const known = found?.methods;
    if (!SERVED_METHODS.includes(method)) {
      return { response: methodNotAllowed(known === undefined ? SERVED_METHODS : Object.keys(known)), requestBody: '' };
    }
    if (isInspectionPath(path)) {
      if (method !== 'GET') return { response: methodNotAllowed(['GET']), requestBody: '' };
      if (project === undefined) return { response: unauthorized(request), requestBody: '' };
      return { response: inspect(store, project, path, new URL(request.url).searchParams), requestBody: '' };
    }
    if (known === undefined) return { response: detail(404, 'Not Found'), requestBody: '' };
    const endpoint = known[method];
    if (endpoint === undefined) return { response: methodNotAllowed(Object.keys(known)), requestBody: '' };
    if (project === undefined) return { response: unauthorized(request), requestBody: '' };
    const run = (value: unknown, idempotencyKey: string | null) => endpoint.run({ store, project, json: value, idempotencyKey });
    if (!endpoint.readsBody) {
      // A GET's params: its query string, then the values of the path's `{name}`s.
      const { searchParams } = new URL(request.url);
      const params = { ...Object.fromEntries(searchParams), ...found?.params };
      return { response: run(params, null), requestBody: '' };
    }

    const read = await readBody(request, bodyLimitBytes);
    if (!read.ok) {
      const response = read.reason === 'too-large' ? tooLarge(bodyLimitBytes) : detail(400, 'Request body is not valid UTF-8');
      return { response, requestBody: '' };
    }
    const key = request.headers.get('idempotency-key');
    const fingerprint = key === null ? '' : await fingerprintOf(read.text);
    if (key !== null) {
      const first = idempotency.recall(project, key);
      if (first !== undefined && first.fingerprint !== fingerprint) {
        return { response: detail(422, 'Idempotency-Key was already used with a different body'), requestBody: read.text };
      }
      if (first !== undefined) return { response: replayed(first.status, first.body, first.contentType), requestBody: read.text };
    }
    let value: unknown;
    try {
      // An empty body is a missing one, which validation reports as 422 `loc: ['body']`, as FastAPI does.
      value = read.text === '' ? undefined : (JSON.parse(read.text) as unknown);
    } catch {
      return { response: detail(400, 'Request body is not valid JSON'), requestBody: read.text };
    }
    const response = run(value, key);
    if (key !== null && response.ok) {
      const contentType = response.headers.get('content-type') ?? 'application/json';
      const body = await response.clone().text();
      idempotency.remember(project, key, { fingerprint, status: response.status, body, contentType, at: now().getTime() });
    }
    return { response, requestBody: read.text };
  }

  function unauthorized(request: Request): Response {
    const text = keyOf(request) === undefined ? 'Missing API key: send Authorization: Bearer <API key>' : 'Invalid API key';
    return detail(401, text, { 'www-authenticate': 'Bearer' });
  }

  function record(method: string, path: string, served: Served, project: string | undefined, started: number): void {
    const recorded = {
      method,
      path,
      status: served.response.status,
      body: served.requestBody,
      project,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    requests.add(recorded);
    if (onRequest !== undefined) {
      try {
        onRequest({ ...recorded, bodyDropped: false });
      } catch (error) {
        console.error('reference server: onRequest threw', error);
      }
    }
  }

  async function handle(request: Request, path: string): Promise<Response> {
    const started = performance.now();
    const method = request.method.toUpperCase();
    const key = keyOf(request);
    const project = key === undefined ? undefined : apiKeys.get(key);
    let served: Served;
    try {
      served = await serve(request, method, path, project);
    } catch (error) {
      console.error('reference server: unexpected error', error);
      served = { response: json({ detail: 'Internal Server Error' }, 500), requestBody: '' };
    }
    record(method, path, served, project, started);
    return served.response;
  }

  function refuseMethod(method: string, path: string): Response {
    const served = { response: methodNotAllowed(SERVED_METHODS), requestBody: '' };
    record(method.toUpperCase(), path, served, undefined, performance.now());
    return served.response;
  }

  return { handle, refuseMethod, store, faults, requests };
}
