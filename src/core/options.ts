import type { NebulyError } from './nebuly-error.js';
import type { Log, Logger, LogLevel } from './logging.js';
import type { ModelPrice } from './model-price.js';
import type { Mask } from './privacy-options.js';
import type { RecorderOptions, ResolvedRecorderOptions } from './recorder-options.js';

export type { ModelPrice } from './model-price.js';

// The client's options as users write them, and their defaults; `resolve-options.ts`
// checks and resolves them.

/** A region of the service: `'us'` or `'eu'`; a project lives in one. */
export type Region = 'us' | 'eu';

/** The base URL of each region (listed in docs/options.md, under `region`). */
export const REGION_BASE_URLS: Readonly<Record<Region, string>> = {
  us: 'https://backend.nebuly.com',
  eu: 'https://backend.eu.nebuly.com',
};

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
  /**
   * Extra headers on every request. `authorization`, `content-type` and `accept` are the
   * SDK's and cannot be set here: the rule of a call's request options, a `TypeError`
   * here as every option of the client.
   */
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
   * Called once with every body that leaves the process (`interactions.send`,
   * `conversations.send`, the recorder's sends) and every payload kept for `onError` or
   * dead letters; what it returns is sent instead. `maskPII` is a ready one. A mask that
   * throws or returns an invalid body sends nothing unmasked: the content fields go out
   * as `[MASK FAILED]` and a `MaskError` goes to `onError` (docs/privacy.md).
   * @default none: bodies go out as they are
   */
  mask?: Mask | undefined;
  /**
   * The share of end users whose conversations are recorded, 0 to 1. The decision is a
   * keyed hash of `end_user`, so a user is kept or dropped for all of their
   * conversations, in every process (docs/privacy.md).
   * @default 1 (every user)
   */
  sampleRate?: number | undefined;
  /**
   * The key of the sampling hash: processes with the same key keep the same users; a new
   * key draws a new sample.
   * @default 'nebuly-sample-v1'
   */
  sampleKey?: string | undefined;
  /**
   * The secret that signs feedback tokens (`turn.feedbackToken()`), so that a page can
   * send its user's feedback through `nebuly.handleFeedback()` without the API key: at
   * least 32 characters (`openssl rand -hex 32`), the same in every instance that mints
   * or receives tokens. Never logged, never in an error or inspect output. Changing it
   * voids the tokens already given out (docs/recorder.md, "Feedback from the page").
   * @default process.env.NEBULY_FEEDBACK_SECRET, else none: minting a token throws
   */
  feedbackSecret?: string | undefined;
  /**
   * The origins of the pages allowed to post feedback to `nebuly.handleFeedback()` from
   * another origin, exactly as a browser sends them: `['https://app.example.com']`. A
   * page on the handler's own origin needs none (behind a proxy that rewrites the host,
   * list it too); any other gets no CORS headers, so its browser refuses to send, and a
   * post that comes anyway is answered 403, nothing recorded.
   * @default [] (same origin only)
   */
  feedbackOrigins?: readonly string[] | undefined;
  /**
   * Prices of models, by name, in US dollars per million tokens: they extend the SDK's
   * built-in, dated table of OpenAI, Anthropic and Gemini models (and replace its price
   * of a model named in both). An LLM step recorded by an integration whose call reported
   * cached, cache-write or reasoning tokens carries its `cost` (micro-dollars) from these
   * prices, since the service would price cached input as plain input. A name matches the
   * model as the provider reports it and its dated variants (`gpt-4o` prices
   * `gpt-4o-2024-08-06`; the longest name that matches wins). A model in neither table
   * gets no `cost`. See docs/client.md, "Model prices".
   * @default {} (the built-in table alone)
   * @example
   * ```ts
   * new NebulyClient({ modelPrices: { 'my-finetune': { input: 3, cachedInput: 1.5, output: 12 } } });
   * ```
   */
  modelPrices?: Readonly<Record<string, ModelPrice>> | undefined;
  /**
   * Lets the client be constructed in a web page. Without it the constructor throws
   * there: the project's API key would reach every visitor, and with it anyone can read
   * every user of the project and delete every interaction. Call the API from a server;
   * set this only where the page's users may hold the key (an internal tool).
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
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
  /** The user's `onError` made safe, or, without one, logging each failure at warn. */
  onError: (error: NebulyError) => void;
  /** The log of `logLevel` and `logger`. */
  log: Log;
  recorder: ResolvedRecorderOptions;
  /** `undefined` when no mask is set. */
  mask: Mask | undefined;
  sampleRate: number;
  sampleKey: string;
  /** `undefined` when none is set: minting a token then throws, naming the option. */
  feedbackSecret: string | undefined;
  feedbackOrigins: readonly string[];
  /** The `modelPrices` option, checked: `{}` when none. */
  modelPrices: Readonly<Record<string, ModelPrice>>;
}

/** The defaults of {@link ClientOptions}. */
export const CLIENT_DEFAULTS = Object.freeze({
  region: 'us' as Region,
  timeoutMs: 30_000,
  // Chosen with `npm run soak`: see docs/recorder.md, "Delivery under faults".
  maxRetries: 4,
  retryDelayMs: 250,
});
