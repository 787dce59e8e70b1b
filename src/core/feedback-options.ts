import { NebulyError } from './errors.js';
import { OptionSpec, problem, typeName } from './option-checks.js';

/**
 * The shortest `feedbackSecret` taken: 32 characters, 256 bits of a random hex or base64
 * string or more, the size of HMAC-SHA-256's own output. A shorter one could be guessed
 * offline from a single token.
 */
export const MIN_FEEDBACK_SECRET_LENGTH = 32;

/**
 * `feedbackSecret`: a string of at least {@link MIN_FEEDBACK_SECRET_LENGTH} characters.
 * Its messages say its length, never the value.
 */
const FEEDBACK_SECRET_OPTION = new OptionSpec<string>((value, context) => {
  if (typeof value !== 'string') {
    problem(context, `must be a string (got ${typeName(value)})`);
    return '';
  }
  if (value.length < MIN_FEEDBACK_SECRET_LENGTH) {
    problem(
      context,
      `must be at least ${MIN_FEEDBACK_SECRET_LENGTH} characters (got ${value.length}); make one with \`openssl rand -hex 32\``,
    );
  }
  return value;
}).env('NEBULY_FEEDBACK_SECRET');

/** `https://app.example.com`: a scheme, a host and maybe a port, as a browser's `Origin` header says it. */
function isOrigin(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/** `feedbackOrigins`: a list of origins, each exactly as a browser sends it (no path, no trailing slash). */
const FEEDBACK_ORIGINS_OPTION = new OptionSpec<readonly string[]>((value, context) => {
  if (!Array.isArray(value)) {
    problem(context, `must be an array of origins such as 'https://app.example.com' (got ${typeName(value)})`);
    return [];
  }
  const origins: string[] = [];
  value.forEach((origin: unknown, index) => {
    if (isOrigin(origin)) origins.push(origin);
    else {
      problem(
        { ...context, path: [...context.path, index] },
        "must be an origin: a scheme and a host, maybe a port, no path or trailing slash, such as 'https://app.example.com'",
      );
    }
  });
  return Object.freeze(origins);
});

/**
 * The options of feedback from the page (`feedbackSecret`, `feedbackOrigins`), a part of
 * the client's table of options: checked once, at construction, with the others.
 *
 * @example
 * ```ts
 * const CLIENT_OPTIONS = { ...FEEDBACK_OPTIONS, apiKey: text() };
 * ```
 */
export const FEEDBACK_OPTIONS = {
  feedbackSecret: FEEDBACK_SECRET_OPTION,
  feedbackOrigins: FEEDBACK_ORIGINS_OPTION.or(Object.freeze([])),
} as const;

/** How long a feedback token is accepted when `ttlMs` is not given: a day, as long as `recorder.feedbackRetentionMs` keeps a sent interaction for late feedback by default. */
export const DEFAULT_FEEDBACK_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** The longest `ttlMs` of a feedback token: 30 days. A token is a bearer credential; it should not outlive its use. */
export const MAX_FEEDBACK_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Options of `turn.feedbackToken()`.
 *
 * @example
 * ```ts
 * const token = await turn.feedbackToken({ ttlMs: 60 * 60 * 1000 }); // accepted for an hour
 * ```
 */
export interface FeedbackTokenOptions {
  /**
   * How long the token is accepted, from now, in milliseconds: 1 s to 30 days.
   * @default 86_400_000 (24 hours)
   */
  ttlMs?: number | undefined;
}

/**
 * Parameters of `nebuly.feedbackToken()`: which interaction (its `turn.id`, in the
 * conversation of `nebuly.conversation({ conversation_id })`), and for how long.
 *
 * @example
 * ```ts
 * const params: FeedbackTokenParams = { conversation_id: chatId, interaction_id: turnId, ttlMs: 3_600_000 };
 * ```
 */
export interface FeedbackTokenParams extends FeedbackTokenOptions {
  conversation_id: string;
  interaction_id: string;
}

/**
 * Mints a feedback token for an interaction: what a turn asks its client for.
 *
 * @example
 * ```ts
 * const mint: FeedbackTokenMinter = (params) => nebuly.feedbackToken(params);
 * ```
 */
export type FeedbackTokenMinter = (params: FeedbackTokenParams) => Promise<string>;

/**
 * The error of minting or receiving a feedback token without `feedbackSecret`.
 *
 * @example
 * ```ts
 * if (secret === undefined) throw noFeedbackSecret('nebuly.feedbackToken()');
 * ```
 */
export function noFeedbackSecret(call: string): NebulyError {
  return new NebulyError(
    `nebuly-client: ${call} needs a \`feedbackSecret\`: pass one of 32 characters or more to \`new NebulyClient()\` ` +
      'or set NEBULY_FEEDBACK_SECRET (make one with `openssl rand -hex 32`), the same in every instance.',
  );
}
