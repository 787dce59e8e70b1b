import ky, { HTTPError, TimeoutError as KyTimeoutError, type KyInstance } from 'ky';
import * as z from 'zod/mini';
import { toIssues } from '../schemas/issues.js';
import {
  AbortError,
  APIError,
  ConnectionError,
  NebulyError,
  TimeoutError,
  UnexpectedResponseError,
} from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { redactError } from './redact.js';

/** The statuses worth another attempt: the answer may differ next time. */
export const RETRYABLE_STATUSES = [408, 429, 500, 502, 503, 504];

/** The longest `Retry-After` honoured; a longer one is waited for this long. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** The longest backoff between two attempts without `Retry-After`. */
export const MAX_BACKOFF_MS = 8_000;

/** The HTTP verbs the service uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request to the service. */
export interface HttpRequest {
  method: HttpMethod;
  /** The path below the base URL, with its leading slash. */
  path: string;
  /** The JSON body, already serialized. */
  body?: string | undefined;
  /** Aborts the request and its retries. */
  signal?: AbortSignal | undefined;
}

/** What an ingestion endpoint answered: any 2xx is success, whatever its body. */
export interface AcceptedResponse {
  /** The HTTP status, 2xx. */
  status: number;
  /** The body: parsed JSON, else its text, else `null` when empty. */
  body: unknown;
}

/** Statuses whose responses carry no body by definition. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * Reads a whole body, giving up at `deadline` (a `Date.now()` value): the time-out of
 * an attempt covers its body too, or a server that sends headers and then stalls would
 * hold the call forever. Throws ky's `TimeoutError`, so that ky retries the attempt.
 */
async function readText(request: Request, response: Response, deadline: number): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    if (!Number.isFinite(deadline)) return;
    timer = setTimeout(() => {
      // Reject before cancelling: cancelling ends the pending read as if the body were
      // complete, and the race must not take a cut body for a whole one.
      reject(new KyTimeoutError(request));
      reader.cancel().catch(() => undefined);
    }, Math.max(0, deadline - Date.now()));
  });
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), expired]);
      if (chunk.done) return text + decoder.decode();
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
}

/** A `Retry-After` that is neither seconds nor an HTTP date; ky would wait its cap (60 s) for one. */
function isUnusableRetryAfter(value: string | null): boolean {
  return value !== null && !/^\s*\d+\s*$/.test(value) && Number.isNaN(Date.parse(value));
}

/**
 * The response with its body read in full within the attempt's time-out, and an
 * unusable `Retry-After` dropped so that the usual backoff applies.
 */
async function buffered(request: Request, response: Response, deadline: number): Promise<Response> {
  const text = await readText(request, response, deadline);
  const headers = new Headers(response.headers);
  if (isUnusableRetryAfter(headers.get('retry-after'))) headers.delete('retry-after');
  return new Response(text === '' || NULL_BODY_STATUSES.has(response.status) ? null : text, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * The body of a response that {@link buffered} already read (no I/O is left): parsed
 * JSON, else its text, else `null` when empty.
 */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function delayForAttempt(baseMs: number) {
  return (retry: number) => Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (retry - 1));
}

/** Equal jitter: between half and all of the computed delay, so retries spread out but never collapse to zero. */
function jitter(delayMs: number): number {
  return delayMs * (0.5 + Math.random() * 0.5);
}

/**
 * The one HTTP engine of the SDK: authentication, per-attempt time-out, retries with
 * backoff and `Retry-After`, and the mapping of failures to SDK errors. The resources and
 * the recorder send through it.
 */
export class HttpCore {
  readonly #ky: KyInstance;
  readonly #options: ResolvedClientOptions;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
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
    this.#ky = ky.create({
      headers,
      // ky applies `timeout` to each attempt and, with `retryOnTimeout`, retries a timed-out one.
      timeout: options.timeoutMs === 0 ? false : options.timeoutMs,
      retry: {
        limit: options.maxRetries,
        // POST too: every endpoint of the service is safe to repeat (ingestion is
        // deduplicated downstream, user updates replace, deletions are idempotent).
        methods: ['get', 'post', 'put', 'delete'],
        statusCodes: RETRYABLE_STATUSES,
        afterStatusCodes: RETRYABLE_STATUSES,
        maxRetryAfter: MAX_RETRY_AFTER_MS,
        backoffLimit: MAX_BACKOFF_MS,
        delay: delayForAttempt(options.retryDelayMs),
        jitter,
        retryOnTimeout: true,
      },
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }

  /** The base URL every path is appended to. */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** Sends a request and returns the raw 2xx response; throws an SDK error otherwise. */
  async send(request: HttpRequest): Promise<Response> {
    const { method, path, body, signal } = request;
    const { timeoutMs } = this.#options;
    let attempts = 1;
    let attemptStartedAt = 0;
    try {
      return await this.#ky(this.#options.baseUrl + path, {
        method,
        ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
        ...(signal === undefined ? {} : { signal }),
        hooks: {
          beforeRequest: [
            () => {
              attemptStartedAt = Date.now();
            },
          ],
          // Inside ky's retry loop: a body that stalls past the attempt's time-out, or a
          // connection dropped mid-body, is retried like any other failed attempt.
          afterResponse: [
            (kyRequest, _options, response) =>
              buffered(kyRequest, response, timeoutMs === 0 ? Infinity : attemptStartedAt + timeoutMs),
          ],
          beforeRetry: [
            () => {
              attempts += 1;
            },
          ],
        },
      });
    } catch (error) {
      throw await this.#toSdkError(error, method, path, attempts, signal);
    }
  }

  /** Sends a request and returns its body parsed by `schema`. */
  async json<S extends z.ZodMiniType>(request: HttpRequest, schema: S): Promise<z.output<S>> {
    const response = await this.send(request);
    const body = await readBody(response);
    const result = z.safeParse(schema, body);
    if (!result.success) {
      throw new UnexpectedResponseError(
        response.status,
        body,
        toIssues(result.error.issues, body),
        request.method,
        request.path,
      );
    }
    return result.data;
  }

  /** Sends a request to an ingestion endpoint: any 2xx is success, whatever its body. */
  async accepted(request: HttpRequest): Promise<AcceptedResponse> {
    const response = await this.send(request);
    return { status: response.status, body: await readBody(response) };
  }

  // Builds errors from what ky saw without ever keeping ky's request or options: they
  // hold the Authorization header.
  async #toSdkError(
    error: unknown,
    method: HttpMethod,
    path: string,
    attempts: number,
    signal: AbortSignal | undefined,
  ): Promise<NebulyError> {
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    if (error instanceof HTTPError) {
      const { response } = error;
      const body = await readBody(response).catch(() => null);
      const ErrorClass = APIError.for(response.status);
      return new ErrorClass(response.status, body, response.headers, method, path);
    }
    if (error instanceof KyTimeoutError) {
      return new TimeoutError(
        `${method} ${path} got no answer within ${this.#options.timeoutMs} ms (${tries})`,
      );
    }
    if (signal?.aborted) {
      return new AbortError(`${method} ${path} was aborted`);
    }
    // A custom fetch may put the request, headers and all, into what it throws.
    const cause = redactError(error, this.#options.apiKey);
    return new ConnectionError(`${method} ${path} failed after ${tries}: ${describeNetworkError(cause)}`, {
      cause,
    });
  }
}

/** `fetch failed` says little; its cause says what happened (`ECONNREFUSED 127.0.0.1:9`). */
function describeNetworkError(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== '') return `${error.message} (${cause.message})`;
  return error.message;
}
