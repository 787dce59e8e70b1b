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
   * network failures. Other statuses are never retried. Four: with 35 % of attempts
   * failing (`npm run soak`), five attempts leave 0.35^5 ≈ 0.5 % undelivered, two
   * retries 4.3 %. See docs/recorder.md, "Delivery under faults".
   * @default 4
   */
  maxRetries?: number | undefined;
  /**
   * The first retry's delay; each next one doubles, up to 8 s, with jitter. A
   * `Retry-After` header (seconds or an HTTP date, capped at 60 s) takes precedence.
   * 250 ms: four retries then wait at most 3.75 s in all when the service sends no
   * `Retry-After`, so that a burst fits in the recorder's shutdown deadline
   * (docs/recorder.md, "Delivery under faults").
   * @default 250
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
  // Chosen with `npm run soak`: see docs/recorder.md, "Delivery under faults".
  maxRetries: 4,
  retryDelayMs: 250,
});

function isRegion(value: string): value is Region {
  return Object.hasOwn(REGION_BASE_URLS, value);
}

/** The longest delay a timer can hold (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

function milliseconds(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new TypeError(`nebuly-client: \`${name}\` must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  return value;
}

// What an HTTP header value can carry, less spaces: a key with a line break or a space
// inside was pasted wrong, and fetch would reject it with a message that quotes it.
const API_KEY_PATTERN = /^[\x21-\x7e]+$/;

function defaultOnError(error: NebulyError): void {
  console.warn(`[nebuly-client] ${error.name}: ${error.message}`);
}

/** A value a message may quote: short, shaped like a region name, so never a key. */
const QUOTABLE_REGION = /^[A-Za-z][A-Za-z0-9_-]{0,15}$/;

/** The unknown region, quoted when it cannot be a secret pasted in the wrong place. */
function describeRegion(region: string): string {
  return QUOTABLE_REGION.test(region) ? JSON.stringify(region) : `(a ${region.length}-character value, not shown)`;
}

function typeError(message: string): TypeError {
  return new TypeError(`nebuly-client: ${message}`);
}

/** An option that must be a string when given; `undefined` stays `undefined`. */
function optionalString(name: string, value: unknown): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  throw typeError(`\`${name}\` must be a string (got ${value === null ? 'null' : typeof value})`);
}

/** An option that must be a function when given. */
function optionalFunction<F>(name: string, value: unknown): F | undefined {
  if (value === undefined || typeof value === 'function') return value as F | undefined;
  throw typeError(`\`${name}\` must be a function (got ${value === null ? 'null' : typeof value})`);
}

/** An option that must be an object when given. */
function optionalObject<T>(name: string, value: unknown): T | undefined {
  if (value === undefined || (typeof value === 'object' && value !== null)) return value as T | undefined;
  throw typeError(`\`${name}\` must be an object (got ${value === null ? 'null' : typeof value})`);
}

/** A copy of an object option's own properties, read once here where a throw can be named. */
function copyOf<T extends object>(name: string, value: T): T {
  try {
    return { ...value };
  } catch {
    throw typeError(`\`${name}\` could not be read (a getter or Proxy threw)`);
  }
}

/** Each option read once, with a getter or Proxy that throws turned into a TypeError naming it. */
function readOptions(options: unknown): Partial<Record<keyof ClientOptions, unknown>> {
  if (options === undefined) return {};
  optionalObject('options', options);
  const read: Partial<Record<keyof ClientOptions, unknown>> = {};
  const names: (keyof ClientOptions)[] = [
    'apiKey', 'region', 'baseUrl', 'timeoutMs', 'maxRetries', 'retryDelayMs', 'fetch', 'headers', 'onError', 'recorder',
  ];
  for (const name of names) {
    try {
      read[name] = (options as Record<string, unknown>)[name];
    } catch {
      throw typeError(`\`${name}\` could not be read (a getter or Proxy threw)`);
    }
  }
  return read;
}

/**
 * Resolves options: each from the option, then its environment variable, then its
 * default. Where the host is concerned, anything given in code beats the environment:
 * `baseUrl`, then `region`, then NEBULY_BASE_URL, then NEBULY_REGION. Throws a
 * `TypeError` that names the option and says what to do when the key is missing, the
 * region unknown or an option of the wrong type; no message repeats the key, nor a value
 * that might be one.
 */
export function resolveClientOptions(options: ClientOptions = {}): ResolvedClientOptions {
  const given = readOptions(options);
  const apiKey = optionalString('apiKey', given.apiKey) ?? readEnv('NEBULY_API_KEY');
  const regionOption = optionalString('region', given.region);
  const region = regionOption ?? readEnv('NEBULY_REGION') ?? CLIENT_DEFAULTS.region;
  const baseUrl = optionalString('baseUrl', given.baseUrl) ?? (regionOption === undefined ? readEnv('NEBULY_BASE_URL') : undefined);
  const {
    timeoutMs = CLIENT_DEFAULTS.timeoutMs,
    maxRetries = CLIENT_DEFAULTS.maxRetries,
    retryDelayMs = CLIENT_DEFAULTS.retryDelayMs,
  } = given as Pick<ClientOptions, 'timeoutMs' | 'maxRetries' | 'retryDelayMs'>;
  const fetch = optionalFunction<typeof globalThis.fetch>('fetch', given.fetch);
  const headers = optionalObject<Record<string, string>>('headers', given.headers) ?? {};
  const onError = optionalFunction<(error: NebulyError) => void>('onError', given.onError) ?? defaultOnError;
  const recorder = copyOf<RecorderOptions>('recorder', optionalObject('recorder', given.recorder) ?? {});

  if (apiKey === undefined || apiKey.trim() === '') {
    throw typeError('no API key. Pass `apiKey` to `new NebulyClient()` or set NEBULY_API_KEY.');
  }
  if (!API_KEY_PATTERN.test(apiKey.trim())) {
    throw typeError(
      'the API key has a space, a line break or a non-ASCII character inside; check how it was copied.',
    );
  }
  const normalizedRegion = region.trim().toLowerCase();
  if (!isRegion(normalizedRegion)) {
    throw typeError(
      `unknown region ${describeRegion(region)}; use 'us' or 'eu' (option \`region\` or NEBULY_REGION).`,
    );
  }
  const base = baseUrl ?? REGION_BASE_URLS[normalizedRegion];
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    // Not quoted: a key pasted here by mistake would be repeated.
    throw typeError('`baseUrl` is not a URL; give an absolute one, such as https://backend.nebuly.com.');
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw typeError('`maxRetries` must be a whole number, zero or more');
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
