import type { Input, KyInstance } from 'ky';
import * as z from 'zod/mini';
import { toIssues } from '../schemas/issues.js';
import {
  AbortError,
  APIError,
  ConnectionError,
  countAttempts,
  type NebulyError,
  RETRYABLE_STATUSES,
  TimeoutError,
  UnexpectedResponseError,
} from './errors.js';
import type { BodyFilter } from './body-filter.js';
import type { Endpoint, HttpMethod } from './endpoints.js';
import type { Log } from './logging.js';
import type { ResolvedClientOptions } from './options.js';
import { redactError } from './redact.js';
import { type CallOverrides, checkRequestOptions, type RequestOptions } from './request-options.js';
import { parseOrThrow } from './validate.js';

/**
 * The longest `Retry-After` honoured; a longer one is waited for this long.
 *
 * @example
 * ```ts
 * retryAfterMs('3600') === MAX_RETRY_AFTER_MS; // true
 * ```
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** The longest backoff between two attempts without `Retry-After`. */
const MAX_BACKOFF_MS = 8_000;

/**
 * One request to the service.
 *
 * @example
 * ```ts
 * const request: HttpRequest = { method: 'POST', path: ENDPOINTS.sendConversation.path, body: json, signal };
 * ```
 */
export interface HttpRequest extends CallOverrides {
  method: HttpMethod;
  /** The path below the base URL, with its leading slash. */
  path: string;
  /** The JSON body, already serialized. */
  body?: string | undefined;
  /** Aborts the request and its retries. */
  signal?: AbortSignal | undefined;
}

/**
 * What an ingestion endpoint answered: any 2xx is success, whatever its body.
 *
 * @example
 * ```ts
 * const { status, body } = await nebuly.conversations.send(params); // 202, { status: 'accepted' }
 * ```
 */
export interface AcceptedResponse {
  /** The HTTP status, 2xx. */
  status: number;
  /** The body: parsed JSON, else its text, else `null` when empty. */
  body: unknown;
}

/**
 * What an endpoint answers: its response schema's output, or, for ingestion, the status and body.
 *
 * @example
 * ```ts
 * type Users = EndpointResult<typeof ENDPOINTS.listEligibleUsers>; // UsersResponse
 * ```
 */
export type EndpointResult<E extends Endpoint> = E['response'] extends z.ZodMiniType
  ? z.output<E['response']>
  : AcceptedResponse;

/**
 * The arguments of an endpoint: its params as accepted (none when it takes no body), then
 * the call's request options.
 *
 * @example
 * ```ts
 * type Args = EndpointArgs<typeof ENDPOINTS.deleteEligibleUsers>; // [params: DeleteUsersParams, options?: RequestOptions]
 * ```
 */
export type EndpointArgs<E extends Endpoint> = E['params'] extends z.ZodMiniType
  ? [params: z.input<E['params']>, options?: RequestOptions | undefined]
  : [options?: RequestOptions | undefined];

/** One attempt's answer, its body read in full within the attempt's time-out. */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** The answer the attempt loop ends with, and which attempt it came from. */
interface FinalAnswer extends Answer {
  attempt: number;
}

/** What an attempt's time-out rejects with; never leaves this module. */
const ATTEMPT_TIMED_OUT = Symbol('attempt timed out');

// An HTTP date of RFC 9110 in GMT (IMF-fixdate, or the obsolete RFC 850 form): the
// day's name first, GMT last. `Date.parse` alone would take `1.5` or `2026` for a date,
// and read the zone-less asctime form in the host's local time.
const HTTP_DATE = /^\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*, .* GMT\s*$/;

/**
 * How long a `Retry-After` asks to wait, in ms, capped at {@link MAX_RETRY_AFTER_MS}:
 * whole seconds, or an HTTP date (a past date: no wait). `undefined` for anything else
 * (absent, `soon`, `1.5`, an ISO date), so that the usual backoff applies. No other
 * header (`RateLimit-Reset`, `X-RateLimit-Reset`) is read.
 *
 * @example
 * ```ts
 * retryAfterMs('5');                               // 5_000
 * retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT');  // 0: the date has passed
 * retryAfterMs('soon');                            // undefined
 * ```
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  let ms: number;
  if (/^\s*\d+\s*$/.test(value)) ms = Number(value) * 1000;
  else if (HTTP_DATE.test(value)) ms = Date.parse(value) - now;
  else return undefined;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

/**
 * The wait before retry number `retry` (1 for the first) without `Retry-After`:
 * `baseMs · 2^(retry − 1)`, at most {@link MAX_BACKOFF_MS}, with equal jitter (between
 * half and all of it), so that retries spread out but never collapse to zero.
 *
 * @example
 * ```ts
 * backoffMs(500, 3); // between 1_000 and 2_000
 * ```
 */
export function backoffMs(baseMs: number, retry: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (retry - 1)) * (0.5 + Math.random() * 0.5);
}

/** A body as the service sent it: parsed JSON, else its text, else `null` when empty. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Read through a call, so that TypeScript does not take it for unchanged since the last check. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts, and then holds no timer. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// Loaded on the first request, not at import: evaluating ky touches `Request` and
// `FormData`, which makes Node load its fetch implementation (about 20 ms) even in a
// process that never sends. Shared by every client.
let kyLoaded: Promise<KyInstance> | undefined;
function loadKy(): Promise<KyInstance> {
  kyLoaded ??= import('ky').then(kyOf);
  return kyLoaded;
}

/**
 * ky's function from its module. In the CommonJS build the dynamic import loads a
 * CommonJS chunk, whose `default` is the chunk's exports object, with ky one level down.
 */
function kyOf(module: { default: unknown }): KyInstance {
  const exported = module.default;
  return (typeof exported === 'function' ? exported : (exported as { default: unknown }).default) as KyInstance;
}

/**
 * The one HTTP engine of the SDK. ky makes each attempt (it builds the request from the
 * client's headers and calls fetch) with its own retries and time-out off; this class
 * owns the attempt loop: the per-attempt time-out, which covers the body, the wait
 * between attempts (backoff with jitter, or `Retry-After`), and the mapping of failures
 * to SDK errors. The resources and the recorder send through it.
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
  /** The headers of a request without a body, and of one with a JSON body: ky copies them. */
  readonly #headers: Headers;
  readonly #jsonHeaders: Headers;
  #ky: KyInstance | undefined;
  /** The client's mask, for the bodies of typed calls; none without one. */
  readonly #filter: BodyFilter | undefined;

  constructor(options: ResolvedClientOptions, filter?: BodyFilter) {
    this.#options = options;
    this.#filter = filter;
    this.#log = options.log;
    let headers: Headers;
    try {
      headers = new Headers(options.headers);
    } catch {
      // fetch's own message quotes the offending value; keep values out of errors.
      throw new TypeError('nebuly-client: `headers` has a name or value an HTTP header cannot carry');
    }
    // Set, not merged: a user header of any case never joins or replaces these.
    headers.set('accept', 'application/json');
    headers.set('authorization', `Bearer ${options.apiKey}`);
    this.#headers = headers;
    this.#jsonHeaders = new Headers(headers);
    this.#jsonHeaders.set('content-type', 'application/json');
  }

  /**
   * Calls an endpoint of the service: validates `params` with the endpoint's schema
   * and the request options (rejecting with a `ValidationError`, nothing sent), sends the
   * params as JSON, and answers the body parsed by the endpoint's
   * response schema, or for ingestion its status and body. The last argument, the
   * call's request options, overrides the client's signal, time-out, retries and headers.
   *
   * @example
   * ```ts
   * const { users } = await http.call(ENDPOINTS.listEligibleUsers, { timeoutMs: 5_000 });
   * await http.call(ENDPOINTS.deleteEligibleUsers, { users: ['u-1'] }, { maxRetries: 0 });
   * ```
   */
  async call<E extends Endpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointResult<E>> {
    const { method, path, params: paramsSchema, response } = endpoint;
    const [params, options] = paramsSchema === undefined ? [undefined, args[0]] : args;
    const overrides = checkRequestOptions(options);
    const valid = paramsSchema === undefined ? undefined : parseOrThrow(paramsSchema, params);
    const body = valid === undefined ? undefined : JSON.stringify(this.#filter === undefined ? valid : this.#filter(endpoint, valid));
    const request: HttpRequest = { ...overrides, method, path, body };
    return (response === undefined ? this.accepted(request) : this.#json(request, response)) as Promise<EndpointResult<E>>;
  }

  /** Sends a request and returns its body parsed by `schema`. */
  async #json<S extends z.ZodMiniType>(request: HttpRequest, schema: S): Promise<z.output<S>> {
    const answer = await this.#exchange(request);
    const body = parseBody(answer.text);
    const result = z.safeParse(schema, body);
    if (!result.success) {
      throw new UnexpectedResponseError(
        answer.status,
        body,
        toIssues(result.error.issues, body),
        request.method,
        request.path,
        answer.attempt,
      );
    }
    return result.data;
  }

  /** Sends a request to an ingestion endpoint: any 2xx is success, whatever its body. */
  async accepted(request: HttpRequest): Promise<AcceptedResponse> {
    const answer = await this.#exchange(request);
    return { status: answer.status, body: parseBody(answer.text) };
  }

  /**
   * The attempt loop: a 2xx answer, or the SDK error of the last attempt, which counts
   * the attempts. Logs each attempt at debug and each retry at info.
   */
  async #exchange(request: HttpRequest): Promise<FinalAnswer> {
    const { method, path, signal } = request;
    const maxRetries = request.maxRetries ?? this.#options.maxRetries;
    const { retryDelayMs } = this.#options;
    if (isAborted(signal)) throw new AbortError(`${method} ${path} was aborted before it was sent`);
    this.#ky ??= await loadKy();
    for (let attempt = 1; ; attempt += 1) {
      let answer: Answer | undefined;
      let failure: unknown;
      const started = this.#log.enabled('debug') ? Date.now() : 0;
      try {
        answer = await this.#attempt(this.#ky, request);
      } catch (error) {
        failure = error;
      }
      const aborted = isAborted(signal);
      if (this.#log.enabled('debug')) this.#logAttempt(request, attempt, Date.now() - started, answer, failure, aborted);
      if (aborted) throw new AbortError(`${method} ${path} was aborted during attempt ${attempt}`, { attempts: attempt });
      let delayMs: number;
      let reason: string;
      if (answer === undefined) {
        if (attempt > maxRetries) throw this.#toSdkError(failure, request, attempt);
        delayMs = backoffMs(retryDelayMs, attempt);
        reason = failure === ATTEMPT_TIMED_OUT ? 'timed out' : 'failed (network error)';
      } else {
        if (answer.status >= 200 && answer.status < 300) return { ...answer, attempt };
        if (attempt > maxRetries || !RETRYABLE_STATUSES.has(answer.status)) {
          const ErrorClass = APIError.for(answer.status);
          throw new ErrorClass(answer.status, parseBody(answer.text), answer.headers, method, path, attempt);
        }
        const retryAfter = retryAfterMs(answer.headers.get('retry-after'));
        delayMs = retryAfter ?? backoffMs(retryDelayMs, attempt);
        reason = `answered ${answer.status}${retryAfter === undefined ? '' : ' with Retry-After'}`;
      }
      if (this.#log.enabled('info')) {
        const waitMs = Math.round(delayMs);
        this.#log.info(`${method} ${path} ${reason} (attempt ${attempt} of ${maxRetries + 1}); retrying in ${waitMs} ms`, {
          method,
          path,
          attempt,
          status: answer?.status,
          waitMs,
        });
      }
      try {
        await wait(delayMs, signal);
      } catch {
        throw new AbortError(`${method} ${path} was aborted after ${countAttempts(attempt)}`, { attempts: attempt });
      }
    }
  }

  /** One attempt at debug: what was asked, what came back and how long it took; no header, no body. */
  #logAttempt(
    { method, path }: HttpRequest,
    attempt: number,
    ms: number,
    answer: Answer | undefined,
    failure: unknown,
    aborted: boolean,
  ): void {
    const outcome =
      answer !== undefined
        ? `answered ${answer.status}`
        : aborted
          ? 'was aborted'
          : failure === ATTEMPT_TIMED_OUT
            ? 'timed out'
            : 'failed (network error)';
    this.#log.debug(`${method} ${path} ${outcome} in ${ms} ms (attempt ${attempt})`, {
      method,
      path,
      status: answer?.status,
      ms,
      attempt,
    });
  }

  /**
   * One attempt, headers and body, within `timeoutMs`: one timer, cleared when the
   * attempt settles. The time-out and the caller's signal abort the request and also end
   * the attempt at once, so that a custom fetch that ignores its signal holds nothing.
   */
  async #attempt(ky: KyInstance, request: HttpRequest): Promise<Answer> {
    const { method, path, body, signal } = request;
    signal?.throwIfAborted();
    const timeoutMs = request.timeoutMs ?? this.#options.timeoutMs;
    const { fetch: customFetch } = this.#options;
    const headers = this.#headersFor(request);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_resolve, reject) => {
      const stop = (reason: unknown) => {
        reject(reason);
        controller.abort(reason);
      };
      if (timeoutMs > 0) timer = setTimeout(() => stop(ATTEMPT_TIMED_OUT), timeoutMs);
      if (signal !== undefined) {
        onAbort = () => stop(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    stopped.catch(() => undefined);
    try {
      const response = await Promise.race([
        ky(this.#options.baseUrl + path, {
          method,
          headers,
          body: body ?? null,
          retry: 0,
          timeout: false,
          throwHttpErrors: false,
          // A fetch of the user's gets the Request ky built, its signal included. The
          // platform's gets the same URL, method and headers, with the body as the string
          // it is: undici streams a Request's body through a TransformStream, and costs
          // about a third more CPU per request that way (see docs/decisions/0001).
          ...(customFetch === undefined
            ? {
                fetch: (built: Input) => {
                  const { url, headers } = built as Request;
                  return globalThis.fetch(url, { method, headers, body: body ?? null, signal: controller.signal });
                },
              }
            : { fetch: customFetch, signal: controller.signal }),
        }),
        stopped,
      ]);
      const text = await Promise.race([response.text(), stopped]);
      return { status: response.status, headers: response.headers, text };
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The client's headers, with the call's own set over them (they cannot name the SDK's). */
  #headersFor({ body, headers: own }: HttpRequest): Headers {
    const base = body === undefined ? this.#headers : this.#jsonHeaders;
    if (own === undefined) return base;
    const merged = new Headers(base);
    own.forEach((value, name) => merged.set(name, value));
    return merged;
  }

  // The one place where a failed attempt becomes an SDK error. What ky and fetch saw is
  // never kept beyond the failure itself: ky's request and options hold the
  // Authorization header.
  #toSdkError(error: unknown, { method, path, timeoutMs }: HttpRequest, attempts: number): NebulyError {
    const tries = countAttempts(attempts);
    if (error === ATTEMPT_TIMED_OUT) {
      const limit = timeoutMs ?? this.#options.timeoutMs;
      return new TimeoutError(`${method} ${path} got no answer within ${limit} ms (${tries})`, { attempts });
    }
    // A custom fetch may put the request, headers and all, into what it throws.
    const cause = redactError(error, this.#options.apiKey);
    return new ConnectionError(`${method} ${path} failed after ${tries}: ${describeNetworkError(cause)}`, {
      cause,
      attempts,
    });
  }
}

/** `fetch failed` says little; its cause says what happened (`ECONNREFUSED 127.0.0.1:9`). */
function describeNetworkError(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== '') return `${error.message} (${cause.message})`;
  return error.message;
}
