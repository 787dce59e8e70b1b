import type { Issue } from '../utils/issues.js';
import { ValidationError } from './errors.js';
import { plainHeaders } from './headers.js';
import { nearestName } from './nearest.js';
import { MAX_TIMER_DELAY_MS } from './options.js';

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

/** Every name of {@link RequestOptions}, checked against it both ways by the type. */
const REQUEST_OPTION_NAMES: { readonly [K in keyof RequestOptions]-?: true } = {
  signal: true,
  timeoutMs: true,
  maxRetries: true,
  headers: true,
  idempotencyKey: true,
};

/** The headers the SDK sets on every request; a call cannot replace them. */
const SDK_HEADERS = ['authorization', 'content-type', 'accept'];

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

/** An option name that is a plain word, safe to repeat in a message. */
const QUOTABLE_NAME = /^[A-Za-z_$]{1,40}$/;

/** The problems of one call's request options, each at the option's path. */
function problemsOf(options: object): { overrides: CallOverrides; issues: Issue[] } {
  const issues: Issue[] = [];
  const problem = (path: (string | number)[], message: string) => issues.push({ path, message, code: 'custom' });
  let names: string[];
  const read: Partial<Record<keyof RequestOptions, unknown>> = {};
  try {
    names = Object.keys(options);
    for (const name of Object.keys(REQUEST_OPTION_NAMES) as (keyof RequestOptions)[]) read[name] = (options as Record<string, unknown>)[name];
  } catch {
    problem([], 'could not be read (a getter or Proxy threw)');
    return { overrides: {}, issues };
  }
  const known = Object.keys(REQUEST_OPTION_NAMES);
  for (const name of names) {
    if (known.includes(name)) continue;
    const nearest = nearestName(name, known);
    // A typo of a known name, or a plain word, is named; anything else may be a secret
    // pasted as an object's name, and is described instead.
    if (nearest !== undefined) problem([name], `is not a request option; did you mean \`${nearest}\`?`);
    else if (QUOTABLE_NAME.test(name)) problem([name], `is not a request option (${known.join(', ')})`);
    else problem([], `has an unknown option (a ${name.length}-character name, not shown)`);
  }
  const { signal, timeoutMs, maxRetries, idempotencyKey } = read;
  if (signal !== undefined && !isAbortSignal(signal)) problem(['signal'], 'must be an AbortSignal (from `new AbortController().signal`)');
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs >= 0 && timeoutMs <= MAX_TIMER_DELAY_MS)) {
    problem(['timeoutMs'], `must be a number of milliseconds from 0 to ${MAX_TIMER_DELAY_MS}`);
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && (maxRetries as number) >= 0)) {
    problem(['maxRetries'], 'must be a whole number, zero or more');
  }
  if (idempotencyKey !== undefined && !(typeof idempotencyKey === 'string' && IDEMPOTENCY_KEY.test(idempotencyKey))) {
    problem(['idempotencyKey'], 'must be a string of 1 to 255 visible ASCII characters');
  }
  const headers = callHeaders(read.headers, problem);
  return {
    overrides: {
      signal: signal as AbortSignal | undefined,
      timeoutMs: timeoutMs as number | undefined,
      maxRetries: maxRetries as number | undefined,
      headers,
      idempotencyKey: idempotencyKey as string | undefined,
    },
    issues,
  };
}

function callHeaders(value: unknown, problem: (path: string[], message: string) => void): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) {
    problem(['headers'], `must be an object (got ${value === null ? 'null' : typeof value})`);
    return undefined;
  }
  const headers = plainHeaders(value as Record<string, unknown>);
  if (headers === undefined) {
    // Never quoted: a value may be a secret.
    problem(['headers'], 'has a name or value an HTTP header cannot carry');
    return undefined;
  }
  for (const name of SDK_HEADERS) {
    if (Object.hasOwn(headers, name)) {
      problem(
        ['headers'],
        `cannot set \`${name}\`: the SDK sets it on every request` +
          (name === 'authorization' ? ' (for another API key, create another client)' : ''),
      );
    }
  }
  return headers;
}

/**
 * Checks a call's request options; `undefined` or `{}` change nothing. Throws a
 * `ValidationError` (nothing is sent) that names each option unknown or of the wrong
 * type; it never quotes a header's value.
 *
 * @example
 * ```ts
 * const overrides = checkRequestOptions({ maxRetries: 0 }); // { maxRetries: 0 }
 * checkRequestOptions({ maxRetry: 0 }); // ValidationError: … maxRetry is not a request option; did you mean `maxRetries`?
 * ```
 */
export function checkRequestOptions(options: unknown): CallOverrides {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError(
      [{ path: [], message: `must be an object (got ${options === null ? 'null' : typeof options})`, code: 'invalid_type' }],
      'request options',
    );
  }
  const { overrides, issues } = problemsOf(options);
  if (issues.length > 0) throw new ValidationError(issues, 'request options');
  return overrides;
}
