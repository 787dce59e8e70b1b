import { readBody } from './body.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { type ReferenceOptions, resolveReferenceOptions } from './options.js';
import { RequestLog } from './request-log.js';
import { detail, json } from './responses.js';
import { ROUTES } from './routes.js';
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
  /** Answers a request whose path below the base URL is `path`. `Response.error()` means: drop the connection. */
  handle(request: Request, path: string): Promise<Response>;
}

/** What serving a request gave: the response, and the request's body as read (`''` when it was not). */
interface Answer {
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

/** @internal Builds the reference: one store, one fault list, one request log, one pipeline. */
export function createReferenceApp(options: ReferenceOptions): ReferenceApp {
  const resolved = resolveReferenceOptions(options);
  const { apiKeys, bodyLimitBytes, onRequest } = resolved;
  const store = new ReferenceStore();
  const faults = new FaultInjector(resolved.random);
  const requests = new RequestLog(resolved.maxRecordedRequests);
  for (const spec of resolved.faults) faults.add(spec);

  function keyOf(request: Request): string | undefined {
    return BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
  }

  // The order mirrors the real deployment: the infrastructure in front of the service
  // (faults, the body limit) acts before the application routes (404, 405), checks the
  // key (401), and parses (400) and validates (422) the body.
  async function serve(request: Request, method: string, path: string, project: string | undefined): Promise<Answer> {
    const fault = faults.take(method, path);
    if (fault !== undefined) {
      if (fault.delayMs !== undefined) {
        await sleep(fault.delayMs, request.signal);
        // The client gave up during the delay: like a proxy, do not serve it at all.
        if (request.signal.aborted) return { response: Response.error(), requestBody: '' };
      }
      const response = faultResponse(fault);
      if (response !== undefined) return { response, requestBody: '' };
    }

    const declaredLength = Number(request.headers.get('content-length') ?? 0);
    if (declaredLength > bodyLimitBytes) return { response: tooLarge(bodyLimitBytes), requestBody: '' };

    const route = ROUTES[path];
    if (route === undefined) return { response: detail(404, 'Not Found'), requestBody: '' };
    const endpoint = route[method];
    if (endpoint === undefined) {
      return { response: detail(405, 'Method Not Allowed', { allow: Object.keys(route).join(', ') }), requestBody: '' };
    }

    if (project === undefined) {
      const text = keyOf(request) === undefined ? 'Missing API key: send Authorization: Bearer <API key>' : 'Invalid API key';
      return { response: detail(401, text, { 'www-authenticate': 'Bearer' }), requestBody: '' };
    }

    if (!endpoint.readsBody) return { response: endpoint.run({ store, project, json: undefined }), requestBody: '' };

    const read = await readBody(request, bodyLimitBytes);
    if (!read.ok) {
      const response = read.reason === 'too-large' ? tooLarge(bodyLimitBytes) : detail(400, 'Request body is not valid UTF-8');
      return { response, requestBody: '' };
    }
    let value: unknown;
    try {
      // An empty body is a missing one, which validation reports as 422 `loc: ['body']`, as FastAPI does.
      value = read.text === '' ? undefined : (JSON.parse(read.text) as unknown);
    } catch {
      return { response: detail(400, 'Request body is not valid JSON'), requestBody: read.text };
    }
    return { response: endpoint.run({ store, project, json: value }), requestBody: read.text };
  }

  async function handle(request: Request, path: string): Promise<Response> {
    const started = performance.now();
    const method = request.method.toUpperCase();
    const key = keyOf(request);
    const project = key === undefined ? undefined : apiKeys.get(key);
    let answer: Answer;
    try {
      answer = await serve(request, method, path, project);
    } catch (error) {
      console.error('reference server: unexpected error', error);
      answer = { response: json({ detail: 'Internal Server Error' }, 500), requestBody: '' };
    }
    const recorded = {
      method,
      path,
      status: answer.response.status,
      body: answer.requestBody,
      project,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    requests.add(recorded);
    if (onRequest !== undefined) {
      try {
        onRequest({ ...recorded });
      } catch (error) {
        console.error('reference server: onRequest threw', error);
      }
    }
    return answer.response;
  }

  return { handle, store, faults, requests };
}
