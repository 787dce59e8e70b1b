import { milliseconds, rejectUnknownOptions, typeError } from './options.js';

/**
 * Options of one call, its last argument: every method of the resources takes them.
 * Each overrides the client's option of the same name for this call only.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const { users } = await nebuly.eligibleUsers.list({
 *   signal: controller.signal,
 *   timeoutMs: 5_000,
 *   maxRetries: 0,
 *   headers: { 'x-request-id': requestId },
 * });
 * ```
 */
export interface RequestOptions {
  /** Aborts the call, its retries and the waits between them: it rejects with an `AbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * How long each attempt of this call may take before it is abandoned and retried.
   * `0`: no limit.
   * @default the client's `timeoutMs`
   */
  timeoutMs?: number | undefined;
  /**
   * Retries of this call after its first attempt, for the same failures as the client's.
   * @default the client's `maxRetries`
   */
  maxRetries?: number | undefined;
  /**
   * Headers added to this call's request, over the client's `headers`. `authorization`,
   * `content-type` and `accept` are the SDK's and cannot be set here (a `TypeError`):
   * another API key needs another client.
   */
  headers?: Record<string, string> | undefined;
}

/** Every name of {@link RequestOptions}, checked against it both ways by the type. */
const REQUEST_OPTION_NAMES: { readonly [K in keyof RequestOptions]-?: true } = {
  signal: true,
  timeoutMs: true,
  maxRetries: true,
  headers: true,
};

/** The headers the SDK sets on every request; a call cannot replace them. */
const SDK_HEADERS = ['authorization', 'content-type', 'accept'];

/** {@link RequestOptions} checked: what a call changes for its request, nothing when absent. */
export interface CallOverrides {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** The call's own headers, to set over the client's. */
  headers?: Headers | undefined;
}

function isAbortSignal(value: unknown): value is AbortSignal {
  // Duck-typed: a signal of another realm (a test environment, a polyfill) is as good.
  const signal = value as Partial<AbortSignal> | null;
  return (
    typeof signal === 'object' &&
    signal !== null &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  );
}

function callHeaders(value: unknown): Headers | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) {
    throw typeError(`request option \`headers\` must be an object (got ${value === null ? 'null' : typeof value})`);
  }
  let headers: Headers;
  try {
    headers = new Headers(value as Record<string, string>);
  } catch {
    // fetch's own message quotes the offending value; keep values out of errors.
    throw typeError('request option `headers` has a name or value an HTTP header cannot carry');
  }
  for (const name of SDK_HEADERS) {
    if (headers.has(name)) {
      throw typeError(
        `request option \`headers\` cannot set \`${name}\`: the SDK sets it on every request` +
          (name === 'authorization' ? ' (for another API key, create another client)' : ''),
      );
    }
  }
  return headers;
}

/**
 * Checks a call's request options; `undefined` or `{}` change nothing. Throws a
 * `TypeError` naming the option when one is unknown or of the wrong type; never quotes a
 * header's value.
 *
 * @example
 * ```ts
 * const overrides = checkRequestOptions({ maxRetries: 0 }); // { maxRetries: 0 }
 * checkRequestOptions({ maxRetry: 0 }); // TypeError: … did you mean `maxRetries`?
 * ```
 */
export function checkRequestOptions(options: unknown): CallOverrides {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw typeError(`request options must be an object (got ${options === null ? 'null' : typeof options})`);
  }
  rejectUnknownOptions(options, Object.keys(REQUEST_OPTION_NAMES), '');
  let given: RequestOptions;
  try {
    const { signal, timeoutMs, maxRetries, headers } = options as RequestOptions;
    given = { signal, timeoutMs, maxRetries, headers };
  } catch {
    throw typeError('request options could not be read (a getter or Proxy threw)');
  }
  const { signal, timeoutMs, maxRetries } = given;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw typeError('request option `signal` must be an AbortSignal (from `new AbortController().signal`)');
  }
  if (timeoutMs !== undefined) milliseconds('timeoutMs', timeoutMs);
  if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || maxRetries < 0)) {
    throw typeError('request option `maxRetries` must be a whole number, zero or more');
  }
  return { signal, timeoutMs, maxRetries, headers: callHeaders(given.headers) };
}
