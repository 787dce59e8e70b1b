import { RECORDER_DEFAULTS, type RecorderOptions } from './recorder-options.js';
import { readEnv } from './env.js';
import { NebulyError } from './errors.js';
import { type Log, type Logger, type LogLevel, backgroundReporter, resolveLog } from './logging.js';
import { nearestName } from './nearest.js';
import { isBrowser } from './runtime.js';

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
   * A base URL that overrides the region's: a proxy, or a reference server. It must start
   * with `http://` or `https://`. NEBULY_BASE_URL, when set, also beats `region`, so that
   * a local test environment wins over a region written in code.
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
   * A fetch for every request; without one, keep-alive `node:http` on Node (with `HTTPS_PROXY`, `NO_PROXY`…).
   * @default node:http on Node, else globalThis.fetch
   */
  fetch?: typeof globalThis.fetch | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Receives the errors of background work (the recorder). Never thrown into your code.
   * It replaces the default, which logs each at `warn` through `logger`: a failure is
   * reported once, by one or the other. A handler that throws is logged at `error`.
   * @default logs the error at warn (see `logLevel`, `logger`)
   */
  onError?: ((error: NebulyError) => void) | undefined;
  /**
   * How much the client logs: `'warn'` logs background failures (when no `onError` is
   * given), `'info'` also each retry and its wait, `'debug'` also each request
   * (method, path, status, ms, attempt). No level logs the API key; none logs a request
   * or response body. `'error'` logs only an `onError` that threw; `'off'` nothing.
   * @default process.env.NEBULY_LOG, else 'warn'
   */
  logLevel?: LogLevel | undefined;
  /**
   * Where log lines go: an object with `error`, `warn`, `info` and `debug` methods, each
   * called with a message and its fields.
   * @default console, each line prefixed with `[nebuly-client]`
   */
  logger?: Logger | undefined;
  /** Options of the conversation recorder. */
  recorder?: RecorderOptions | undefined;
  /**
   * Lets the client be constructed in a web page. Without it the constructor throws
   * there: the project's API key would reach every visitor, and with it anyone can read
   * every user of the project and delete every interaction. Call the API from a server;
   * set this only where the page's users may hold the key (an internal tool).
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/**
 * Every option name {@link ClientOptions} has, checked against it both ways by the type:
 * the one list unknown names are compared with.
 */
const CLIENT_OPTION_NAMES: { readonly [K in keyof ClientOptions]-?: true } = {
  apiKey: true,
  region: true,
  baseUrl: true,
  timeoutMs: true,
  maxRetries: true,
  retryDelayMs: true,
  fetch: true,
  headers: true,
  onError: true,
  logLevel: true,
  logger: true,
  recorder: true,
  dangerouslyAllowBrowser: true,
};

/** {@link ClientOptions} with every default filled in, normalized once. */
export interface ResolvedClientOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string>;
  /** The user's `onError` made safe, or, without one, logging each failure at warn. */
  onError: (error: NebulyError) => void;
  /** The log of `logLevel` and `logger`. */
  log: Log;
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

/**
 * Throws a `TypeError` for the first own key of `options` that is not a known option,
 * naming it and the known name it is probably a typo of.
 */
/** An option name that is a plain word, safe to repeat in a message. */
const QUOTABLE_OPTION_NAME = /^[A-Za-z_$]{1,40}$/;

function rejectUnknownOptions(options: object, known: readonly string[], prefix: string): void {
  let names: string[];
  try {
    names = Object.keys(options);
  } catch {
    throw typeError(`the ${prefix === '' ? 'options' : `\`${prefix.slice(0, -1)}\` option`} could not be read (a Proxy threw)`);
  }
  for (const name of names) {
    if (known.includes(name)) continue;
    const nearest = nearestName(name, known);
    const hint =
      nearest === undefined
        ? `the options are ${known.map((option) => `\`${prefix}${option}\``).join(', ')}`
        : `did you mean \`${prefix}${nearest}\`?`;
    // A typo of a known name, or a plain word, is quoted; anything else may be a key
    // pasted as an object's name, and is described instead.
    const shown =
      nearest !== undefined || QUOTABLE_OPTION_NAME.test(name)
        ? `\`${prefix}${name}\``
        : `(a ${name.length}-character name, not shown)`;
    throw typeError(`unknown option ${shown}; ${hint}`);
  }
}

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
  for (const name of Object.keys(CLIENT_OPTION_NAMES) as (keyof ClientOptions)[]) {
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
 * default. The host, most specific first: `baseUrl`, NEBULY_BASE_URL, `region`,
 * NEBULY_REGION, `'us'` (a base URL set in the environment for local testing beats a
 * region written in code). Throws a `TypeError` that names the option and says what to do
 * when an option name is unknown, the key is missing, the region unknown or an option of
 * the wrong type; no message repeats the key, nor a value that might be one. In a
 * browser, throws unless `dangerouslyAllowBrowser` is set.
 */
export function resolveClientOptions(options: ClientOptions = {}): ResolvedClientOptions {
  const given = readOptions(options);
  const recorder = copyOf<RecorderOptions>('recorder', optionalObject('recorder', given.recorder) ?? {});
  rejectUnknownOptions(options, Object.keys(CLIENT_OPTION_NAMES), '');
  rejectUnknownOptions(recorder, Object.keys(RECORDER_DEFAULTS), 'recorder.');
  if (given.dangerouslyAllowBrowser !== true && isBrowser()) throw new NebulyError(BROWSER_REFUSAL);
  const apiKey = optionalString('apiKey', given.apiKey) ?? readEnv('NEBULY_API_KEY');
  const region = optionalString('region', given.region) ?? readEnv('NEBULY_REGION') ?? CLIENT_DEFAULTS.region;
  const baseUrl = optionalString('baseUrl', given.baseUrl) ?? readEnv('NEBULY_BASE_URL');
  const {
    timeoutMs = CLIENT_DEFAULTS.timeoutMs,
    maxRetries = CLIENT_DEFAULTS.maxRetries,
    retryDelayMs = CLIENT_DEFAULTS.retryDelayMs,
  } = given as Pick<ClientOptions, 'timeoutMs' | 'maxRetries' | 'retryDelayMs'>;
  const fetch = optionalFunction<typeof globalThis.fetch>('fetch', given.fetch);
  const headers = optionalObject<Record<string, string>>('headers', given.headers) ?? {};
  const onError = optionalFunction<(error: NebulyError) => void>('onError', given.onError);
  const log = resolveLog(given.logLevel, given.logger);

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
  // `localhost:8787` would parse as a URL of scheme `localhost:`, and the first request
  // would fail as a network error, retried, instead of here.
  if (!/^https?:\/\//i.test(base)) {
    throw new TypeError(
      'nebuly-client: `baseUrl` (or NEBULY_BASE_URL) must start with http:// or https://, e.g. http://127.0.0.1:8787.',
    );
  }
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
    onError: backgroundReporter(log, onError),
    log,
    recorder,
  };
}
