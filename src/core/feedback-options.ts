import { valueOf } from './option-kinds.js';

/** `https://app.example.com`: a scheme, a host, maybe a port; no path, no trailing slash, as a browser's `Origin` says it. */
const ORIGIN = /^https?:\/\/[^/?#\s@]+$/;

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
  // 32 characters: 256 bits of a random hex or base64 string or more, HMAC-SHA-256's own
  // size; a shorter secret could be guessed offline from one token. Never quoted.
  feedbackSecret: valueOf<string>(
    'a string of 32 characters or more',
    (value) => typeof value === 'string' && value.length >= 32,
  ).env('NEBULY_FEEDBACK_SECRET'),
  feedbackOrigins: valueOf<readonly string[]>(
    "an array of origins such as ['https://app.example.com']",
    (value) => Array.isArray(value) && value.every((origin) => typeof origin === 'string' && ORIGIN.test(origin)),
  ).or([]),
} as const;

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
   * How long the token is accepted, from now, in milliseconds: 1 s to 30 days. A day by
   * default: as long as `recorder.feedbackRetentionMs` keeps a sent interaction for late
   * feedback by default.
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
 * Mints a feedback token for a turn: what `turn.feedbackToken()` asks its client for.
 * `resumable`: its conversation is one of `nebuly.conversation({ conversation_id })`, the
 * only kind feedback can find.
 *
 * @example
 * ```ts
 * const mint: FeedbackTokenMinter = (turn, options) => page.forTurn(turn, options);
 * ```
 */
export type FeedbackTokenMinter = (
  turn: { conversationId: string; interactionId: string; resumable: boolean },
  options: FeedbackTokenOptions | undefined,
) => Promise<string>;
