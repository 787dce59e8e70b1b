import type { Issue } from '../utils/issues.js';
import { NebulyError } from './nebuly-error.js';
import { backgroundReporter, resolveLog } from './logging.js';
import { checkOptions, constructionError, group, OptionSpec } from './option-checks.js';
import { flag, func, milliseconds, prices, text } from './option-kinds.js';
import { CLIENT_DEFAULTS, type ClientOptions, REGION_BASE_URLS, type Region, type ResolvedClientOptions } from './options.js';
import { FEEDBACK_OPTIONS } from './feedback-options.js';
import { PRIVACY_OPTIONS } from './privacy-options.js';
import { RECORDER_OPTIONS } from './recorder-options.js';
import { isBrowser } from './runtime.js';
import { HEADERS_OPTION, MAX_RETRIES_OPTION, TIMEOUT_MS_OPTION } from './shared-options.js';

/** Passed on unchecked here: `resolveLog` checks `logLevel` and `logger`, with NEBULY_LOG. */
const checkedByLog = new OptionSpec<unknown>((value) => value);

/**
 * Every option of {@link ClientOptions}: its check, environment variable and default
 * (docs/options.md is generated from it: scripts/options-table.ts).
 *
 * @example
 * ```ts
 * CLIENT_OPTIONS.timeoutMs.fallback?.value; // 30_000
 * ```
 */
export const CLIENT_OPTIONS = {
  apiKey: text().env('NEBULY_API_KEY'),
  region: text().env('NEBULY_REGION').or(CLIENT_DEFAULTS.region),
  baseUrl: text().env('NEBULY_BASE_URL'),
  timeoutMs: TIMEOUT_MS_OPTION.or(CLIENT_DEFAULTS.timeoutMs),
  maxRetries: MAX_RETRIES_OPTION.or(CLIENT_DEFAULTS.maxRetries),
  retryDelayMs: milliseconds().or(CLIENT_DEFAULTS.retryDelayMs),
  fetch: func<typeof globalThis.fetch>(),
  headers: HEADERS_OPTION.or({}),
  onError: func<(error: NebulyError) => void>(),
  logLevel: checkedByLog,
  logger: checkedByLog,
  recorder: group(RECORDER_OPTIONS),
  ...PRIVACY_OPTIONS,
  ...FEEDBACK_OPTIONS,
  modelPrices: prices().or({}),
  dangerouslyAllowBrowser: flag().or(false),
} satisfies { readonly [K in keyof ClientOptions]-?: OptionSpec<unknown, unknown> };

// What an HTTP header value can carry, less spaces: a key with a line break or a space
// inside was pasted wrong, and fetch would reject it with a message that quotes it.
const API_KEY_PATTERN = /^[\x21-\x7e]+$/;

const BROWSER_REFUSAL =
  'nebuly-client: refusing to run in a browser. The project API key would be sent to every visitor of the page, ' +
  'and with it anyone can read every user of the project and delete every interaction. ' +
  'Call the Nebuly API from your server instead; if every user of this page may hold the key ' +
  '(an internal tool), pass `dangerouslyAllowBrowser: true`.';

/** A value a message may quote: short, shaped like a region name, so never a key. */
const QUOTABLE_REGION = /^[A-Za-z][A-Za-z0-9_-]{0,15}$/;

/** The unknown region, quoted when it cannot be a secret pasted in the wrong place. */
function describeRegion(region: string): string {
  return QUOTABLE_REGION.test(region) ? JSON.stringify(region) : `(a ${region.length}-character value, not shown)`;
}

function isRegion(value: string): value is Region {
  return Object.hasOwn(REGION_BASE_URLS, value);
}

/** The key, trimmed: present, and shaped so that a header can carry it. */
function apiKeyOf(apiKey: string | undefined): string {
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new TypeError('nebuly-client: no API key. Pass `apiKey` to `new NebulyClient()` or set NEBULY_API_KEY.');
  }
  if (!API_KEY_PATTERN.test(apiKey.trim())) {
    throw new TypeError(
      'nebuly-client: the API key has a space, a line break or a non-ASCII character inside; check how it was copied.',
    );
  }
  return apiKey.trim();
}

/**
 * The base URL: `baseUrl` (or NEBULY_BASE_URL), else the region's. None of these
 * messages quotes a URL: a key pasted here by mistake would be repeated.
 */
function baseUrlOf(baseUrl: string | undefined, region: string): string {
  const normalizedRegion = region.trim().toLowerCase();
  if (!isRegion(normalizedRegion)) {
    throw new TypeError(
      `nebuly-client: unknown region ${describeRegion(region)}; use 'us' or 'eu' (option \`region\` or NEBULY_REGION).`,
    );
  }
  const base = baseUrl ?? REGION_BASE_URLS[normalizedRegion];
  // `localhost:8787` would parse as a URL of scheme `localhost:`, and the first request
  // would fail as a network error, retried, instead of here.
  if (!/^https?:\/\//i.test(base)) {
    throw new TypeError(
      'nebuly-client: `baseUrl` (or NEBULY_BASE_URL) must start with http:// or https://, e.g. http://127.0.0.1:8787.',
    );
  }
  try {
    return new URL(base).href.replace(/\/+$/, '');
  } catch {
    throw new TypeError('nebuly-client: `baseUrl` is not a URL; give an absolute one, such as https://backend.nebuly.com.');
  }
}

/**
 * Resolves options: each from the option, then its environment variable, then its
 * default. The host, most specific first: `baseUrl`, NEBULY_BASE_URL, `region`,
 * NEBULY_REGION, `'us'` (a base URL set in the environment for local testing beats a
 * region written in code). Throws a `TypeError` that names every option unknown (with
 * the nearest known name), of the wrong type or out of range, the recorder's included;
 * then one that says what to do when the key is missing or the region unknown. No
 * message repeats the key, nor a value that might be one. In a browser, throws unless
 * `dangerouslyAllowBrowser` is set.
 *
 * @example
 * ```ts
 * const http = new HttpCore(resolveClientOptions({ apiKey: 'k', region: 'eu' }));
 * ```
 */
export function resolveClientOptions(options: ClientOptions = {}): ResolvedClientOptions {
  const issues: Issue[] = [];
  const given = checkOptions(options, CLIENT_OPTIONS, { path: [], issues });
  if (issues.length > 0) throw constructionError(issues);
  if (!given.dangerouslyAllowBrowser && isBrowser()) throw new NebulyError(BROWSER_REFUSAL);
  const { timeoutMs, maxRetries, retryDelayMs, fetch, headers, recorder, mask, sampleRate, sampleKey, feedbackSecret, feedbackOrigins, modelPrices } = given;
  const log = resolveLog(given.logLevel, given.logger);
  const apiKey = apiKeyOf(given.apiKey);
  const baseUrl = baseUrlOf(given.baseUrl, given.region);
  return { apiKey, baseUrl, timeoutMs, maxRetries, retryDelayMs, fetch, headers, onError: backgroundReporter(log, given.onError), log, recorder, mask, sampleRate, sampleKey, feedbackSecret, feedbackOrigins, modelPrices };
}
