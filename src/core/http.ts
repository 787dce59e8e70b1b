import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { toIssues } from '../schemas/issues.js';
import { errorOf, isRedirect, parseBody, redactResponse } from './response.js';
import { ATTEMPT_TIMED_OUT, withinTimeout } from './attempt.js';
import type { BodyFilter } from './body-filter.js';
import type { Endpoint, HttpMethod } from './endpoints.js';
import { AbortError, ConnectionError, countAttempts, type NebulyError, TimeoutError, UnexpectedResponseError } from './errors.js';
import { plainHeaders } from './headers.js';
import { logAttempt, logRetry } from './http-log.js';
import type { AcceptedResponse, DeliverRequest, EndpointArgs, EndpointResult, HttpRequest } from './http-types.js';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from './idempotency.js';
import { loadKy } from './ky.js';
import type { Log } from './logging.js';
import type { ResolvedClientOptions } from './options.js';
import { redactError, redactText } from './redact.js';
import { type CallOverrides, checkRequestOptions } from './request-options.js';
import { nextAttempt, unresolvedHost, wait } from './retry.js';
import { wireResponseOf } from './transport/fetch.js';
import { chooseTransport, type TransportChoice } from './transport/select.js';
import type { Transport, WireResponse } from './transport/types.js';
import { parseOrThrow } from './validate.js';

export type { AcceptedResponse, DeliverRequest, EndpointArgs, EndpointResult, HttpRequest } from './http-types.js';

/** What the attempt loop needs to know of a request, besides how to send it. */
interface Exchange extends Pick<CallOverrides, 'signal' | 'timeoutMs' | 'maxRetries'> {
  method: HttpMethod;
  path: string;
}

/** Read through a call, so that TypeScript does not take it for unchanged since the last check. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * The one HTTP engine of the SDK. The typed client's calls go through ky (an instance
 * with the client's base URL, headers and transport); the recorder's deliveries go
 * straight to the transport (`node:http` with keep-alive on Node, `fetch` elsewhere, a
 * `fetch` of the user's always). Both share the attempt loop: the per-attempt time-out,
 * which covers the body, the retry policy of `retry.ts`, redirects refused, the key
 * redacted from every response, and the mapping of failures to SDK errors.
 *
 * @example
 * ```ts
 * const http = new HttpCore(resolveClientOptions({ apiKey }));
 * const { users } = await http.call(ENDPOINTS.listEligibleUsers);
 * ```
 */
export class HttpCore {
  readonly #options: ResolvedClientOptions;
  readonly #log: Log;
  readonly #choice: TransportChoice;
  /** The client's headers, the SDK's set over them; plain objects, made at the first request. */
  #headers: Record<string, string> | undefined;
  #transport: Transport | undefined;
  #ky: KyInstance | undefined;
  /** The client's mask, for the bodies of typed calls; none without one. */
  readonly #filter: BodyFilter | undefined;

  /**
   * `transport: 'fetch'` forces the platform's fetch where Node's would be used (tests);
   * `filter` is what each typed call's body passes through (the client's mask).
   */
  constructor(options: ResolvedClientOptions, internals: { transport?: TransportChoice; filter?: BodyFilter | undefined } = {}) {
    this.#options = options;
    this.#filter = internals.filter;
    this.#log = options.log;
    this.#choice = internals.transport ?? 'auto';
    // Checked here, where the mistake was made; fetch's own message would quote the value.
    if (plainHeaders(options.headers) === undefined) {
      throw new TypeError('nebuly-client: `headers` has a name or value an HTTP header cannot carry');
    }
  }

  /** The transport, made at the first request. */
  get transport(): Transport {
    this.#transport ??= chooseTransport(this.#options.fetch, this.#choice);
    return this.#transport;
  }

  /** Set, not merged: a user header of any case never joins or replaces the SDK's. */
  #baseHeaders(): Record<string, string> {
    this.#headers ??= {
      ...plainHeaders(this.#options.headers),
      accept: 'application/json',
      authorization: `Bearer ${this.#options.apiKey}`,
    };
    return this.#headers;
  }

  /**
   * Calls an endpoint of the service: validates `params` with the endpoint's schema
   * and the request options (rejecting with a `ValidationError`, nothing sent), sends the
   * params as JSON through ky, and resolves with the body parsed by the endpoint's response
   * schema, or for ingestion its status and body. The last argument, the call's request
   * options, overrides the client's signal, time-out, retries and headers. A call to an
   * endpoint that ingests data carries an `Idempotency-Key`, the same on each retry.
   *
   * @example
   * ```ts
   * const { users } = await http.call(ENDPOINTS.listEligibleUsers, { timeoutMs: 5_000 });
   * await http.call(ENDPOINTS.deleteEligibleUsers, { users: ['u-1'] }, { maxRetries: 0 });
   * ```
   */
  async call<E extends Endpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointResult<E>> {
    const { method, path, params: paramsSchema, response: responseSchema } = endpoint;
    const [params, options] = paramsSchema === undefined ? [undefined, args[0]] : args;
    const overrides = checkRequestOptions(options);
    const valid = paramsSchema === undefined ? undefined : parseOrThrow(paramsSchema, params);
    const body = valid === undefined ? undefined : JSON.stringify(this.#filter === undefined ? valid : this.#filter(endpoint, valid));
    const key = overrides.headers?.[IDEMPOTENCY_HEADER] ?? overrides.idempotencyKey ?? (endpoint.ingests === true ? newIdempotencyKey() : undefined);
    const headers: Record<string, string> = {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...overrides.headers,
      ...(key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key }),
    };
    const ky = (this.#ky ??= (await loadKy()).create({
      prefixUrl: this.#options.baseUrl,
      headers: this.#baseHeaders(),
      fetch: this.transport.fetch,
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
    }));
    const response = await this.#exchange({ ...overrides, method, path }, async (signal) =>
      wireResponseOf(await ky(path.slice(1), { method, headers, body: body ?? null, signal })),
    );
    if (responseSchema === undefined) return { status: response.status, body: parseBody(response.text) } as EndpointResult<E>;
    const parsed = parseBody(response.text);
    const result = z.safeParse(responseSchema, parsed);
    if (!result.success) {
      const issues = toIssues(result.error.issues, parsed);
      throw new UnexpectedResponseError(response.status, parsed, issues, method, path, response.attempt, new Headers(response.headers));
    }
    return result.data as EndpointResult<E>;
  }

  /**
   * Posts a JSON body to an ingesting endpoint for the recorder, with its idempotency
   * key, through the transport (no `Request` built on Node): retried with the client's
   * policy, any 2xx is success. Rejects with the SDK error of the last attempt.
   *
   * @example
   * ```ts
   * const { status } = await http.deliver({ path: ENDPOINTS.sendConversation.path, body, idempotencyKey: key });
   * ```
   */
  async deliver(request: DeliverRequest & Pick<CallOverrides, 'timeoutMs' | 'maxRetries'>): Promise<AcceptedResponse> {
    const { path, body, idempotencyKey, signal } = request;
    const url = this.#options.baseUrl + path;
    const headers = { ...this.#baseHeaders(), 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: idempotencyKey };
    const transport = this.transport;
    const exchange: Exchange = { method: 'POST', path, signal, timeoutMs: request.timeoutMs, maxRetries: request.maxRetries };
    const response = await this.#exchange(exchange, (attemptSignal) => transport.send({ url, method: 'POST', headers, body, signal: attemptSignal }));
    return { status: response.status, body: parseBody(response.text) };
  }

  /**
   * The recorder's former way in: {@link HttpCore.deliver} with the request's
   * `idempotency-key` header, else a new key kept for this call's retries.
   *
   * @example
   * ```ts
   * await http.accepted({ method: 'POST', path: ENDPOINTS.sendConversation.path, body: json });
   * ```
   */
  accepted(request: HttpRequest): Promise<AcceptedResponse> {
    const { path, body = '', signal, timeoutMs, maxRetries, headers } = request;
    const idempotencyKey = headers?.[IDEMPOTENCY_HEADER] ?? request.idempotencyKey ?? newIdempotencyKey();
    return this.deliver({ path, body, idempotencyKey, signal, timeoutMs, maxRetries });
  }

  /**
   * The attempt loop: a 2xx response with the attempt it came from, or the SDK error of the
   * last attempt. Each response is redacted before anything reads it. Logs each attempt at
   * debug and each retry at info.
   */
  async #exchange(request: Exchange, send: (signal: AbortSignal) => Promise<WireResponse>): Promise<WireResponse & { attempt: number }> {
    const { method, path, signal } = request;
    const policy = { maxRetries: request.maxRetries ?? this.#options.maxRetries, retryDelayMs: this.#options.retryDelayMs };
    const timeoutMs = request.timeoutMs ?? this.#options.timeoutMs;
    if (isAborted(signal)) throw new AbortError(`${method} ${path} was aborted before it was sent`);
    for (let attempt = 1; ; attempt += 1) {
      let response: WireResponse | undefined;
      let failure: unknown;
      const started = this.#log.enabled('debug') ? Date.now() : 0;
      try {
        response = redactResponse(await withinTimeout(send, timeoutMs, signal), this.#options.apiKey);
      } catch (error) {
        failure = error;
      }
      const aborted = isAborted(signal);
      if (this.#log.enabled('debug')) logAttempt(this.#log, request, attempt, Date.now() - started, response, failure, aborted);
      if (aborted) throw new AbortError(`${method} ${path} was aborted during attempt ${attempt}`, { attempts: attempt });
      const url = this.#options.baseUrl + path;
      if (response !== undefined && isRedirect(response)) throw errorOf(response, { method, path, url }, attempt);
      if (response !== undefined && response.status >= 200 && response.status < 300) return { ...response, attempt };
      const decision = nextAttempt(
        response === undefined
          ? failure === ATTEMPT_TIMED_OUT ? { kind: 'timeout' } : { kind: 'network', error: failure }
          : { kind: 'response', status: response.status, retryAfter: response.headers['retry-after'] },
        attempt,
        policy,
      );
      if (!decision.retry) throw response === undefined ? this.#toSdkError(failure, request, attempt, timeoutMs) : errorOf(response, { method, path, url }, attempt);
      if (this.#log.enabled('info')) logRetry(this.#log, request, decision.reason, attempt, policy.maxRetries + 1, decision.delayMs, response?.status);
      try {
        await wait(decision.delayMs, signal);
      } catch {
        throw new AbortError(`${method} ${path} was aborted after ${countAttempts(attempt)}`, { attempts: attempt });
      }
    }
  }

  // The one place where a failed attempt becomes an SDK error. What ky and the transport
  // saw is never kept beyond the failure itself: ky's request holds the Authorization header.
  #toSdkError(error: unknown, { method, path }: Exchange, attempts: number, timeoutMs: number): NebulyError {
    const tries = countAttempts(attempts);
    if (error === ATTEMPT_TIMED_OUT) {
      return new TimeoutError(`${method} ${path} got no answer within ${timeoutMs} ms (${tries})`, { attempts });
    }
    // A custom fetch may put the request, headers and all, into what it throws.
    const cause = redactError(error, this.#options.apiKey);
    const host = unresolvedHost(error);
    if (host !== undefined) {
      const named = redactText(host === '' ? new URL(this.#options.baseUrl).hostname : host, this.#options.apiKey);
      return new ConnectionError(`${method} ${path} failed: the host ${named} does not resolve (DNS: ENOTFOUND); check the base URL`, { cause, attempts });
    }
    return new ConnectionError(`${method} ${path} failed after ${tries}: ${describeNetworkError(cause)}`, { cause, attempts });
  }
}

/** `fetch failed` says little; its cause says what happened (`ECONNREFUSED 127.0.0.1:9`). */
function describeNetworkError(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== '') return `${error.message} (${cause.message})`;
  return error.message;
}
