import { formatPath, type Issue, listBounded } from '../utils/issues.js';
import { describeBody } from './describe-body.js';
import { NebulyError } from './nebuly-error.js';
import { RETRYABLE_STATUSES } from './retryable-statuses.js';

// The errors of requests, made only by lazy modules (the engine, the typed call); the two
// that construction and recording use are declared apart, in nebuly-error.ts, so that a
// bundle loads these when it first sends (docs/decisions/0004-pay-for-what-you-use.md).
export { NebulyError, ValidationError } from './nebuly-error.js';

/** The longest request id a message repeats; a longer header is cut. */
const MAX_REQUEST_ID_LENGTH = 128;

/**
 * The service's id of the request, from its `x-request-id` answer header, for support.
 *
 * @example
 * ```ts
 * requestIdOf(new Headers({ 'x-request-id': 'req_123' })); // 'req_123'
 * ```
 */
export function requestIdOf(headers: Headers | undefined): string | undefined {
  const id = headers?.get('x-request-id')?.trim();
  return id === undefined || id === '' ? undefined : id.slice(0, MAX_REQUEST_ID_LENGTH);
}

/** ` (request id req_123)` for a message, or nothing. */
function mentionRequestId(requestId: string | undefined): string {
  return requestId === undefined ? '' : ` (request id ${requestId})`;
}

/**
 * `1 attempt`, `5 attempts`: how error messages count the requests made.
 *
 * @example
 * ```ts
 * countAttempts(5); // '5 attempts'
 * ```
 */
export function countAttempts(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

/**
 * The service answered with a status other than 2xx. The subclass tells the status:
 * {@link AuthenticationError}, {@link RateLimitError}, {@link InternalServerError},
 * {@link RedirectError}, ….
 * For a status the SDK retries (408, 429, 5xx) the message counts the attempts
 * (`GET /api/external/eligible-users answered 503 after 5 attempts`); any other status
 * is never retried. When the answer carried an `x-request-id`, the message ends with
 * `(request id …)` and {@link APIError.requestId} holds it: quote it to support.
 * Everything here comes from the answer with the API key (and its base64 form) redacted.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (error instanceof APIError) console.log(error.status, error.attempts, error.requestId);
 * }
 * ```
 */
export class APIError extends NebulyError {
  override name = 'APIError';
  /** The HTTP status. */
  readonly status: number;
  /** The parsed body: JSON when it was JSON, else the text (`''` when empty). */
  readonly body: unknown;
  /** The response headers. */
  readonly headers: Headers;
  /** The requests made, this answer's included: 1, or more when the status was retried. */
  readonly attempts: number;
  /** The service's id of the request (its `x-request-id` answer header), when it sent one. */
  readonly requestId: string | undefined;

  constructor(status: number, body: unknown, headers: Headers, method: string, path: string, attempts = 1, detail = describeBody(body)) {
    const tries = RETRYABLE_STATUSES.has(status) ? ` after ${countAttempts(attempts)}` : '';
    const requestId = requestIdOf(headers);
    super(`${method} ${path} answered ${status}${tries}${mentionRequestId(requestId)}${detail === undefined ? '' : `: ${detail}`}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.attempts = attempts;
    this.requestId = requestId;
  }

  /** The error class for a status. */
  static for(status: number): typeof APIError {
    return STATUS_CLASSES[status] ?? (status >= 500 ? InternalServerError : APIError);
  }
}

/** 400: the request was malformed. */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/** 401: the API key is missing or unknown. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 403: the API key may not do this. */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/** 404: no such endpoint or resource. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** 409: the request conflicts with stored data. */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 413: the body is larger than the service takes. */
export class PayloadTooLargeError extends APIError {
  override name = 'PayloadTooLargeError';
}
/** 422: the service rejected the body's fields; the message names them. */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
/** 429: too many requests; retried with `Retry-After` before it reaches you. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
/** 5xx: the service failed; retried before it reaches you. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/**
 * 3xx: the service answered with a redirect, which the SDK never follows: a redirect is
 * not success, a POST is never re-sent as a GET, and nothing goes to another origin.
 * {@link RedirectError.location} is where it pointed (origin and path only: no query,
 * no credentials). A redirect usually means a wrong base URL (`http://` for `https://`,
 * a missing path prefix, a proxy's login page).
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (error instanceof RedirectError) console.log(`check baseUrl: redirected to ${error.location}`);
 * }
 * ```
 */
export class RedirectError extends APIError {
  override name = 'RedirectError';
  /** The redirect's target, origin and path only; `undefined` when the answer named none. */
  readonly location: string | undefined;

  constructor(status: number, location: string | undefined, headers: Headers, method: string, path: string, followedBy?: 'fetch') {
    const where = location === undefined ? 'a redirect with no usable Location' : `a redirect to ${location}`;
    const what =
      followedBy === 'fetch'
        ? `${where}, which the \`fetch\` given to the client followed (give it \`redirect: 'manual'\`); not taken as success`
        : `${where}; redirects are not followed (check the base URL)`;
    super(status, null, headers, method, path, 1, what);
    this.location = location;
  }
}

const STATUS_CLASSES: Partial<Record<number, typeof APIError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/**
 * No answer: the connection failed or was dropped, after every retry. The message and
 * {@link ConnectionError.attempts} count the attempts.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (error instanceof ConnectionError) console.log(`unreachable after ${error.attempts} attempts`);
 * }
 * ```
 */
export class ConnectionError extends NebulyError {
  override name = 'ConnectionError';
  /** The requests made, each of which failed. */
  readonly attempts: number;

  constructor(message: string, options: ErrorOptions & { attempts?: number | undefined } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.attempts = options.attempts ?? 1;
  }
}

/** No answer within `timeoutMs`, on the last attempt. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}

/**
 * The request was aborted through its `signal`. {@link AbortError.attempts} counts the
 * requests made before (0 when the signal had aborted before the call).
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const listed = nebuly.eligibleUsers.list({ signal: controller.signal });
 * controller.abort(); // listed rejects with an AbortError
 * ```
 */
export class AbortError extends NebulyError {
  override name = 'AbortError';
  /** The requests started before the abort. */
  readonly attempts: number;

  constructor(message: string, options: ErrorOptions & { attempts?: number | undefined } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.attempts = options.attempts ?? 0;
  }
}

/** The service answered 2xx with a body that is not what the spec says. */
export class UnexpectedResponseError extends NebulyError {
  override name = 'UnexpectedResponseError';
  /** The HTTP status. */
  readonly status: number;
  /** The parsed body. */
  readonly body: unknown;
  /** What did not match. */
  readonly issues: readonly Issue[];
  /** The requests made, this answer's included. */
  readonly attempts: number;
  /** The service's id of the request (its `x-request-id` answer header), when it sent one. */
  readonly requestId: string | undefined;

  constructor(
    status: number,
    body: unknown,
    issues: readonly Issue[],
    method: string,
    path: string,
    attempts = 1,
    headers?: Headers,
  ) {
    const tries = attempts > 1 ? ` after ${countAttempts(attempts)}` : '';
    const requestId = requestIdOf(headers);
    super(
      `${method} ${path} answered ${status}${tries}${mentionRequestId(requestId)} with an unexpected body: ${listBounded(
        issues,
        (issue) => `${formatPath(issue.path)} ${issue.message}`,
      )}`,
    );
    this.status = status;
    this.body = body;
    this.issues = issues;
    this.attempts = attempts;
    this.requestId = requestId;
  }
}
