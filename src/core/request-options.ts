import type { Issue } from '../utils/issues.js';
import { ValidationError } from './nebuly-error.js';
import { checkOptions, type OptionSpec } from './option-checks.js';
import { valueOf } from './option-kinds.js';
import { HEADERS_OPTION, MAX_RETRIES_OPTION, TIMEOUT_MS_OPTION } from './shared-options.js';

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
   * `content-type` and `accept` are the SDK's and cannot be set here (a `ValidationError`):
   * another API key needs another client. An `idempotency-key` here is sent as given,
   * and wins over `idempotencyKey`.
   */
  headers?: Record<string, string> | undefined;
  /**
   * The `Idempotency-Key` of this call, the same on each of its retries. Calls that
   * ingest data (`interactions.send`, `conversations.send`) get a new random one when
   * none is given; pass your own to make a call you repeat later (after a crash, from a
   * queue) count once.
   * @default a random UUID per call, on the calls that ingest data
   */
  idempotencyKey?: string | undefined;
}

/** {@link RequestOptions} checked: what a call changes for its request, nothing when absent. */
export interface CallOverrides {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** The call's own headers, lower-case names, to set over the client's. */
  headers?: Record<string, string> | undefined;
  idempotencyKey?: string | undefined;
}

function isAbortSignal(value: unknown): value is AbortSignal {
  // Duck-typed: a signal of another realm (a test environment, a polyfill) is as good.
  const signal = value as Partial<AbortSignal> | null;
  try {
    return (
      typeof signal === 'object' &&
      signal !== null &&
      typeof signal.aborted === 'boolean' &&
      typeof signal.addEventListener === 'function' &&
      typeof signal.removeEventListener === 'function'
    );
  } catch {
    return false; // a getter or Proxy that throws is no signal
  }
}

/** What an `Idempotency-Key` may hold: visible ASCII, as the IETF draft's examples. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Every option of {@link RequestOptions}, checked against it both ways by the type. */
const REQUEST_OPTIONS: { readonly [K in keyof RequestOptions]-?: OptionSpec<Exclude<RequestOptions[K], undefined>> } = {
  signal: valueOf('an AbortSignal (from `new AbortController().signal`)', isAbortSignal),
  timeoutMs: TIMEOUT_MS_OPTION,
  maxRetries: MAX_RETRIES_OPTION,
  headers: HEADERS_OPTION,
  idempotencyKey: valueOf('a string of 1 to 255 visible ASCII characters', (value) => typeof value === 'string' && IDEMPOTENCY_KEY.test(value)),
};

/**
 * Checks a call's request options; `undefined` or `{}` change nothing. Throws a
 * `ValidationError` (nothing is sent) that names each option unknown or of the wrong
 * type; it never quotes a header's value.
 *
 * @example
 * ```ts
 * const overrides = checkRequestOptions({ maxRetries: 0 }); // { maxRetries: 0, … }
 * checkRequestOptions({ maxRetry: 0 }); // ValidationError: … maxRetry is not a request option; did you mean `maxRetries`?
 * ```
 */
export function checkRequestOptions(options: unknown): CallOverrides {
  if (options === undefined) return {};
  const issues: Issue[] = [];
  const overrides = checkOptions(options, REQUEST_OPTIONS, { path: [], issues }, 'a request option');
  if (issues.length > 0) throw new ValidationError(issues, 'request options');
  return overrides;
}
