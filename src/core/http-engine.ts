import { ATTEMPT_TIMED_OUT } from './attempt.js';
import type { HttpMethod } from './endpoint-paths.js';
import { AbortError, ConnectionError, countAttempts, type NebulyError, TimeoutError } from './errors.js';
import { plainHeaders } from './headers.js';
import { logAttempt, logRetry } from './http-log.js';
import type { AcceptedResponse, DeliverRequest } from './http-types.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';
import type { Log } from './logging.js';
import type { ResolvedClientOptions } from './options.js';
import { redactError, redactText, type Secrets } from './redact.js';
import type { CallOverrides } from './request-options.js';
import { errorOf, isRedirect, parseBody, redactResponse } from './response.js';
import { nextAttempt, unresolvedHost, wait } from './retry.js';
import { chooseTransport, type TransportChoice } from './transport/select.js';
import type { Transport, WireResponse } from './transport/types.js';

/**
 * What the attempt loop needs to know of a request, besides how to send it.
 *
 * @example
 * ```ts
 * const exchange: Exchange = { method: 'POST', path: ENDPOINT_PATHS.sendConversation.path, timeoutMs: 5_000 };
 * ```
 */
export interface Exchange extends Pick<CallOverrides, 'signal' | 'timeoutMs' | 'maxRetries'> {
  method: HttpMethod;
  path: string;
}

/** How many paths' URLs an engine keeps joined: the recorder delivers to two or three. */
const MAX_KNOWN_URLS = 16;

/**
 * What a delivery resolves with: the status, and the body as the service sent it, parsed
 * at its first read. The recorder, the one caller, never reads it: a JSON parse a delivery
 * (~3 µs of its CPU on Node 20) for nothing.
 */
class Accepted implements AcceptedResponse {
  readonly status: number;
  #text: string | undefined;
  #body: unknown;

  constructor(status: number, text: string) {
    this.status = status;
    this.#text = text;
  }

  get body(): unknown {
    if (this.#text !== undefined) {
      this.#body = parseBody(this.#text);
      this.#text = undefined;
    }
    return this.#body;
  }
}

function accepted(response: WireResponse): AcceptedResponse {
  return new Accepted(response.status, response.text);
}

/** Read through a call, so that TypeScript does not take it for unchanged since the last check. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * What `HttpCore` loads at its first request: the transport, the attempt loop (the
 * per-attempt time-out, the retry policy of `retry.ts`, redirects refused, the key
 * redacted from every response, failures mapped to SDK errors) and the recorder's
 * deliveries. Nothing of it is made before a request needs it.
 *
 * @example
 * ```ts
 * const engine = new HttpEngine(resolveClientOptions({ apiKey }), 'auto');
 * await engine.deliver({ path: ENDPOINT_PATHS.sendConversation.path, body, idempotencyKey });
 * ```
 */
export class HttpEngine {
  readonly options: ResolvedClientOptions;
  /** What is redacted from every response and failure: the API key, and the feedback secret when there is one. */
  readonly #secrets: Secrets;
  readonly #log: Log;
  /** The client's headers, the SDK's set over them: the same plain object for every request. */
  readonly baseHeaders: Readonly<Record<string, string>>;
  /**
   * The headers of every delivery, its key's value left empty: copied a delivery and the
   * key set in place. Adding the key to a copy (or spreading it in) took V8 ~0.6 µs,
   * setting a field it has ~30 ns.
   */
  readonly #deliverHeaders: Readonly<Record<string, string>>;
  /** The URL of each path delivered to (see `#urlOf`). */
  readonly #urls = new Map<string, string>();
  /** A `fetch` of the user's always wins; else `node:http` on Node, `fetch` elsewhere. */
  readonly transport: Transport;

  constructor(options: ResolvedClientOptions, choice: TransportChoice) {
    this.options = options;
    this.#secrets = options.feedbackSecret === undefined ? options.apiKey : [options.apiKey, options.feedbackSecret];
    this.#log = options.log;
    // Set, not merged: a user header of any case never joins or replaces the SDK's.
    this.baseHeaders = {
      ...plainHeaders(options.headers),
      accept: 'application/json',
      authorization: `Bearer ${options.apiKey}`,
    };
    this.#deliverHeaders = { ...this.baseHeaders, 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: '' };
    this.transport = chooseTransport(options.fetch, choice);
  }

  /**
   * Posts a JSON body to an ingesting endpoint, with its idempotency key, through the
   * transport (no `Request` built on Node): retried with the client's policy, any 2xx is
   * success. Rejects with the SDK error of the last attempt.
   *
   * @example
   * ```ts
   * const { status } = await engine.deliver({ path, body, idempotencyKey: key });
   * ```
   */
  deliver(request: DeliverRequest & Pick<CallOverrides, 'timeoutMs' | 'maxRetries'>): Promise<AcceptedResponse> {
    const { path, body, idempotencyKey, signal } = request;
    const url = this.#urlOf(path);
    const headers: Record<string, string> = { ...this.#deliverHeaders };
    headers[IDEMPOTENCY_HEADER] = idempotencyKey;
    const transport = this.transport;
    const exchange: Exchange = { method: 'POST', path, signal, timeoutMs: request.timeoutMs, maxRetries: request.maxRetries };
    // Chained, not awaited: the attempt loop's promise is the delivery's only frame.
    return this.exchange(exchange, (timeoutMs) => transport.send({ url, method: 'POST', headers, body, timeoutMs, signal })).then(accepted);
  }

  /**
   * The URL of `path`, one string for every delivery to it: joined once, and so hashed
   * once where the transport looks its target up, not joined and flattened a request.
   */
  #urlOf(path: string): string {
    let url = this.#urls.get(path);
    if (url === undefined) {
      url = this.options.baseUrl + path;
      if (this.#urls.size >= MAX_KNOWN_URLS) this.#urls.clear();
      this.#urls.set(path, url);
    }
    return url;
  }

  /**
   * The attempt loop: a 2xx response with the attempt it came from, or the SDK error of the
   * last attempt. Each response is redacted before anything reads it. Logs each attempt at
   * debug and each retry at info.
   *
   * `send` makes one attempt, within the time-out it is given, and honours the request's
   * `signal`: rejecting with `ATTEMPT_TIMED_OUT` (core/attempt.ts) past the time-out, with
   * the signal's reason once it aborts. A transport's `send` does both its own way;
   * anything else wraps itself in `withinTimeout`.
   *
   * @example
   * ```ts
   * const response = await engine.exchange({ method: 'GET', path, signal }, (timeoutMs) =>
   *   withinTimeout((attemptSignal) => send(attemptSignal), timeoutMs, signal),
   * );
   * ```
   */
  async exchange(request: Exchange, send: (timeoutMs: number) => Promise<WireResponse>): Promise<WireResponse & { attempt: number }> {
    const { method, path, signal } = request;
    const policy = { maxRetries: request.maxRetries ?? this.options.maxRetries, retryDelayMs: this.options.retryDelayMs };
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    if (isAborted(signal)) throw new AbortError(`${method} ${path} was aborted before it was sent`);
    for (let attempt = 1; ; attempt += 1) {
      let response: WireResponse | undefined;
      let failure: unknown;
      const started = this.#log.enabled('debug') ? Date.now() : 0;
      try {
        response = redactResponse(await send(timeoutMs), this.#secrets);
      } catch (error) {
        failure = error;
      }
      const aborted = isAborted(signal);
      if (this.#log.enabled('debug')) logAttempt(this.#log, request, attempt, Date.now() - started, response, failure, aborted);
      if (aborted) throw new AbortError(`${method} ${path} was aborted during attempt ${attempt}`, { attempts: attempt });
      if (response !== undefined && response.status >= 200 && response.status < 300 && !response.redirected) {
        // Field by field: spreading responses of several shapes (the transports', redacted copies) was slow.
        return { status: response.status, headers: response.headers, text: response.text, redirected: false, attempt };
      }
      const url = this.options.baseUrl + path;
      if (response !== undefined && isRedirect(response)) throw errorOf(response, { method, path, url }, attempt);
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
    const cause = redactError(error, this.#secrets);
    const host = unresolvedHost(error);
    if (host !== undefined) {
      const named = redactText(host === '' ? new URL(this.options.baseUrl).hostname : host, this.#secrets);
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
