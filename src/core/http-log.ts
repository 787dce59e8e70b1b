import { ATTEMPT_TIMED_OUT } from './attempt.js';
import type { Log } from './logging.js';
import type { WireResponse } from './transport/types.js';

/**
 * One attempt at debug: what was asked, what came back and how long it took; no
 * header, no body.
 *
 * @example
 * ```ts
 * logAttempt(log, { method: 'GET', path }, 1, 12, response, undefined, false);
 * ```
 */
export function logAttempt(
  log: Log,
  { method, path }: { method: string; path: string },
  attempt: number,
  ms: number,
  response: WireResponse | undefined,
  failure: unknown,
  aborted: boolean,
): void {
  const outcome =
    response !== undefined
      ? `answered ${response.status}`
      : aborted
        ? 'was aborted'
        : failure === ATTEMPT_TIMED_OUT
          ? 'timed out'
          : 'failed (network error)';
  log.debug(`${method} ${path} ${outcome} in ${ms} ms (attempt ${attempt})`, { method, path, status: response?.status, ms, attempt });
}

/**
 * A retry at info: why, which attempt, and how long until the next.
 *
 * @example
 * ```ts
 * logRetry(log, { method: 'POST', path }, 'answered 503', 1, 5, 250, 503);
 * ```
 */
export function logRetry(
  log: Log,
  { method, path }: { method: string; path: string },
  reason: string,
  attempt: number,
  attempts: number,
  delayMs: number,
  status: number | undefined,
): void {
  const waitMs = Math.round(delayMs);
  log.info(`${method} ${path} ${reason} (attempt ${attempt} of ${attempts}); retrying in ${waitMs} ms`, {
    method,
    path,
    attempt,
    status,
    waitMs,
  });
}
