/**
 * The statuses the SDK retries: the response may differ next time. Any other is final at
 * once (a 3xx included: redirects are never followed), so an `APIError` of another status
 * always comes from one attempt. Apart from the rest of the retry policy (`retry.ts`)
 * because every `APIError`'s message reads it, and the error classes load with the client
 * while the policy loads with the first request (docs/decisions/0004-pay-for-what-you-use.md).
 *
 * @example
 * ```ts
 * RETRYABLE_STATUSES.has(503); // true
 * ```
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
