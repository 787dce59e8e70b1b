import { plainHeaders } from './headers.js';
import { OptionSpec, problem, typeName } from './option-checks.js';
import { milliseconds, number } from './option-kinds.js';
import { sdkHeaderProblems } from './sdk-headers.js';

// The options a call shares with its client are one spec each, so that the client's
// `headers: { Authorization }` and a call's meet the same rule and the same words.

/**
 * How long one attempt may take, in milliseconds, up to what a timer can wait.
 *
 * @example
 * ```ts
 * const specs = { timeoutMs: TIMEOUT_MS_OPTION };
 * ```
 */
export const TIMEOUT_MS_OPTION: OptionSpec<number> = milliseconds();

/**
 * Retries after the first attempt: a whole number, zero or more.
 *
 * @example
 * ```ts
 * const specs = { maxRetries: MAX_RETRIES_OPTION.or(4) };
 * ```
 */
export const MAX_RETRIES_OPTION: OptionSpec<number> = number({ min: 0, whole: true });

/**
 * Extra headers: an object whose names and values HTTP can carry (never quoted: a value
 * may be a secret), none of them a header the SDK sets itself (`authorization`,
 * `content-type`, `accept`). Resolves to a plain object of lower-case names.
 *
 * @example
 * ```ts
 * const specs = { headers: HEADERS_OPTION };
 * ```
 */
export const HEADERS_OPTION: OptionSpec<Record<string, string>> = new OptionSpec((value, context) => {
  if (typeof value !== 'object' || value === null) {
    problem(context, `must be an object (got ${typeName(value)})`);
    return {};
  }
  let headers: Record<string, string> | undefined;
  try {
    headers = plainHeaders(value as Record<string, unknown>);
  } catch {
    problem(context, 'could not be read (a getter or Proxy threw)');
    return {};
  }
  if (headers === undefined) {
    problem(context, 'has a name or value an HTTP header cannot carry');
    return {};
  }
  for (const message of sdkHeaderProblems(Object.keys(headers))) problem(context, message);
  return headers;
});
