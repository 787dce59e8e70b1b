import type { RecorderOptions } from '../recorder/options.js';
import { readEnv } from './env.js';
import type { NebulyError } from './errors.js';

/** The regions the service runs in; a project lives in one. */
export const REGION_BASE_URLS = {
  us: 'https://backend.nebuly.com',
  eu: 'https://backend.eu.nebuly.com',
} as const;

/** A region of the service. */
export type Region = keyof typeof REGION_BASE_URLS;

/** Options of {@link NebulyClient}. Each falls back to its environment variable, then to its default. */
export interface ClientOptions {
  /**
   * The project's API key, sent as `Authorization: Bearer <key>`.
   * @default process.env.NEBULY_API_KEY
   */
  apiKey?: string | undefined;
  /**
   * The region of the project: `'us'` → `https://backend.nebuly.com`, `'eu'` →
   * `https://backend.eu.nebuly.com`, for every endpoint.
   * @default process.env.NEBULY_REGION, else 'us'
   */
  region?: Region | undefined;
  /**
   * A base URL that overrides the region's: a proxy, or a reference server.
   * NEBULY_BASE_URL is used only when neither `baseUrl` nor `region` is given in code.
   * @default process.env.NEBULY_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * How long one attempt may take before it is abandoned and retried.
   * @default 30_000
   */
  timeoutMs?: number | undefined;
  /**
   * Retries after the first attempt, for 408, 429, 500, 502, 503, 504, time-outs and
   * network failures. Other statuses are never retried.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * The first retry's delay; each next one doubles, up to 8 s, with jitter. A
   * `Retry-After` header (seconds or an HTTP date, capped at 60 s) takes precedence.
   * @default 500
   */
  retryDelayMs?: number | undefined;
  /**
   * A fetch implementation to use instead of `globalThis.fetch`.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Receives the errors of background work (the recorder). Never thrown into your code.
   * @default logs a one-line warning with `console.warn`
   */
  onError?: ((error: NebulyError) => void) | undefined;
  /** Options of the conversation recorder. */
  recorder?: RecorderOptions | undefined;
}

/** {@link ClientOptions} with every default filled in, normalized once. */
export interface ResolvedClientOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string>;
  onError: (error: NebulyError) => void;
  recorder: RecorderOptions;
}

/** The defaults of {@link ClientOptions}. */
export const CLIENT_DEFAULTS = Object.freeze({
  region: 'us' as Region,
  timeoutMs: 30_000,
  maxRetries: 2,
  retryDelayMs: 500,
});

function isRegion(value: string): value is Region {
  return Object.hasOwn(REGION_BASE_URLS, value);
}

/** The longest delay `setTimeout` takes (2^31 - 1 ms, about 24.8 days); a longer one fires at once in every runtime. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

function milliseconds(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > MAX_TIMER_DELAY_MS) {
    throw new TypeError(`nebuly-client: \`${name}\` must be a number of milliseconds from 0 to ${MAX_TIMER_DELAY_MS}`);
  }
  return value;
}

// What an HTTP header value can carry, less spaces: a key with a line break or a space
// inside was pasted wrong, and fetch would reject it with a message that quotes it.
const API_KEY_PATTERN = /^[\x21-\x7e]+$/;

function defaultOnError(error: NebulyError): void {
  console.warn(`[nebuly-client] ${error.name}: ${error.message}`);
}

/**
 * Resolves options: each from the option, then its environment variable, then its
 * default. Where the host is concerned, anything given in code beats the environment:
 * `baseUrl`, then `region`, then NEBULY_BASE_URL, then NEBULY_REGION. Throws a
 * `TypeError` that says what to do when the key is missing or the region unknown; no
 * message repeats the key.
 */
export function resolveClientOptions(options: ClientOptions = {}): ResolvedClientOptions {
  const {
    apiKey = readEnv('NEBULY_API_KEY'),
    region = readEnv('NEBULY_REGION') ?? CLIENT_DEFAULTS.region,
    baseUrl = options.region === undefined ? readEnv('NEBULY_BASE_URL') : undefined,
    timeoutMs = CLIENT_DEFAULTS.timeoutMs,
    maxRetries = CLIENT_DEFAULTS.maxRetries,
    retryDelayMs = CLIENT_DEFAULTS.retryDelayMs,
    fetch,
    headers = {},
    onError = defaultOnError,
    recorder = {},
  } = options;

  if (apiKey === undefined || apiKey.trim() === '') {
    throw new TypeError(
      'nebuly-client: no API key. Pass `apiKey` to `new NebulyClient()` or set NEBULY_API_KEY.',
    );
  }
  if (!API_KEY_PATTERN.test(apiKey.trim())) {
    throw new TypeError(
      'nebuly-client: the API key has a space, a line break or a non-ASCII character inside; check how it was copied.',
    );
  }
  const normalizedRegion = region.trim().toLowerCase();
  if (!isRegion(normalizedRegion)) {
    throw new TypeError(
      `nebuly-client: unknown region ${JSON.stringify(region)}; use 'us' or 'eu' (option \`region\` or NEBULY_REGION).`,
    );
  }
  const base = baseUrl ?? REGION_BASE_URLS[normalizedRegion];
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    throw new TypeError(`nebuly-client: \`baseUrl\` ${JSON.stringify(base)} is not a URL.`);
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new TypeError('nebuly-client: `maxRetries` must be a whole number, zero or more');
  }
  return {
    apiKey: apiKey.trim(),
    baseUrl: parsed.href.replace(/\/+$/, ''),
    timeoutMs: milliseconds('timeoutMs', timeoutMs),
    maxRetries,
    retryDelayMs: milliseconds('retryDelayMs', retryDelayMs),
    fetch,
    headers,
    onError,
    recorder,
  };
}
