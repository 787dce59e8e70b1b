/**
 * The retry policy of every request the SDK makes, the typed client's and the recorder's
 * deliveries alike: which responses are retried, how long to wait, and the attempt loop's
 * decision after each attempt. Pure, apart from the jitter's randomness and {@link wait}.
 */
import { watchAbort } from './abort-watch.js';
import { RETRYABLE_STATUSES } from './retryable-statuses.js';

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
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  let ms: number;
  if (/^\s*\d+\s*$/.test(value)) ms = Number(value) * 1000;
  else if (HTTP_DATE.test(value)) ms = Date.parse(value) - now;
  else return undefined;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

/**
 * The wait before retry number `retry` (1 for the first) without `Retry-After`:
 * `baseMs · 2^(retry − 1)`, at most 8 s, with equal jitter (between half and all of it),
 * so that retries spread out but never collapse to zero.
 *
 * @example
 * ```ts
 * backoffMs(500, 3); // between 1_000 and 2_000
 * ```
 */
export function backoffMs(baseMs: number, retry: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (retry - 1)) * (0.5 + Math.random() * 0.5);
}

/**
 * How an attempt ended, as far as the policy cares: a response of some status (with its
 * `Retry-After`, if any), no response within the time-out, or a network failure.
 *
 * @example
 * ```ts
 * const outcome: AttemptOutcome = { kind: 'response', status: 503, retryAfter: '2' };
 * ```
 */
export type AttemptOutcome =
  | { kind: 'response'; status: number; retryAfter?: string | undefined }
  | { kind: 'timeout' }
  | { kind: 'network'; error?: unknown };

/** How deep a network failure's `cause` chain is searched: fetch wraps the system's error once. */
const MAX_CAUSE_DEPTH = 4;

/**
 * When a network failure says that a host's name does not resolve (`getaddrinfo
 * ENOTFOUND`, from `node:http` or in the `cause` of fetch's `fetch failed`), the host it
 * looked up (`''` when the error does not say); else `undefined`. Such a failure is
 * permanent: no retry changes a name that does not exist. `EAI_AGAIN` (the resolver did
 * not reply in time) is not one: it is retried like any network failure.
 *
 * @example
 * ```ts
 * unresolvedHost(Object.assign(new Error('getaddrinfo ENOTFOUND x.invalid'), { code: 'ENOTFOUND', hostname: 'x.invalid' })); // 'x.invalid'
 * unresolvedHost(new Error('connect ECONNREFUSED 127.0.0.1:9'));                                                          // undefined
 * ```
 */
export function unresolvedHost(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth += 1) {
    try {
      const { code, hostname, cause } = current as { code?: unknown; hostname?: unknown; cause?: unknown };
      if (code === 'ENOTFOUND') return typeof hostname === 'string' ? hostname : '';
      current = cause;
    } catch {
      return undefined; // a getter that throws says nothing about DNS
    }
  }
  return undefined;
}

/**
 * What to do after an attempt that did not succeed: stop (the caller turns the outcome
 * into its error), or wait `delayMs` and try again; `reason` says why, for the log.
 *
 * @example
 * ```ts
 * const next = nextAttempt({ kind: 'timeout' }, 1, { maxRetries: 4, retryDelayMs: 250 });
 * if (next.retry) await wait(next.delayMs, signal);
 * ```
 */
export type RetryDecision = { retry: false } | { retry: true; delayMs: number; reason: string };

/**
 * The client's retry settings, resolved.
 *
 * @example
 * ```ts
 * const policy: RetryPolicy = { maxRetries: 4, retryDelayMs: 250 };
 * ```
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first retry's backoff, doubled for each next one. */
  retryDelayMs: number;
}

/**
 * The attempt loop's one decision: after attempt number `attempt` (from 1) ended with
 * `outcome` (never a 2xx, which is success), retry or stop. Time-outs, network failures
 * (but a host that does not resolve: {@link unresolvedHost}) and
 * {@link RETRYABLE_STATUSES} are retried while retries are left, after `Retry-After`
 * when the response carries one the SDK reads, else after {@link backoffMs}.
 *
 * @example
 * ```ts
 * nextAttempt({ kind: 'response', status: 429, retryAfter: '3' }, 1, policy); // { retry: true, delayMs: 3_000, … }
 * nextAttempt({ kind: 'response', status: 401 }, 1, policy);                  // { retry: false }
 * ```
 */
export function nextAttempt(outcome: AttemptOutcome, attempt: number, policy: RetryPolicy): RetryDecision {
  if (attempt > policy.maxRetries) return { retry: false };
  if (outcome.kind === 'timeout') return { retry: true, delayMs: backoffMs(policy.retryDelayMs, attempt), reason: 'timed out' };
  if (outcome.kind === 'network') {
    if (unresolvedHost(outcome.error) !== undefined) return { retry: false };
    return { retry: true, delayMs: backoffMs(policy.retryDelayMs, attempt), reason: 'failed (network error)' };
  }
  if (!RETRYABLE_STATUSES.has(outcome.status)) return { retry: false };
  const after = retryAfterMs(outcome.retryAfter);
  return {
    retry: true,
    delayMs: after ?? backoffMs(policy.retryDelayMs, attempt),
    reason: `answered ${outcome.status}${after === undefined ? '' : ' with Retry-After'}`,
  };
}

/**
 * Waits `ms`; rejects with the signal's reason as soon as it aborts, and then holds no timer.
 *
 * @example
 * ```ts
 * await wait(250, controller.signal);
 * ```
 */
export function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unwatch?.();
      resolve();
    }, ms);
    const unwatch =
      signal === undefined
        ? undefined
        : watchAbort(signal, (reason) => {
            clearTimeout(timer);
            reject(reason);
          });
  });
}
