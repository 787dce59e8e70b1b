import type { TimestampInput } from './common.js';
import type { ConversationFeedbackAction } from './feedback.js';

/**
 * The interaction a late feedback is about, as accepted: the service finds it by
 * `end_user`, `input` and `output` among the interactions it already received.
 *
 * @example
 * ```ts
 * const metadata: FeedbackMetadataInput = { end_user: hashed, input: 'Hi', output: 'Hello!', timestamp: new Date() };
 * ```
 */
export interface FeedbackMetadataInput {
  /** The interaction's input, exactly as it was sent. */
  input: string;
  /** The interaction's output, exactly as it was sent. */
  output: string;
  /** The interaction's end user, exactly as it was sent (the hash, when you hash). */
  end_user: string;
  /** When the user gave the feedback: after the interaction's `time_end`. */
  timestamp: TimestampInput;
  /** Whether the service anonymizes the data. The service's default is `true`. */
  anonymize?: boolean | undefined;
}

/**
 * The metadata as sent: `timestamp` in UTC, as `toISOString()` gives it.
 *
 * @example
 * ```ts
 * const { metadata }: SendFeedbackBody = body;
 * metadata.timestamp; // '2026-03-01T10:05:00.000Z'
 * ```
 */
export interface FeedbackMetadata extends Omit<FeedbackMetadataInput, 'timestamp'> {
  /** When the user gave the feedback, ISO 8601 in UTC. */
  timestamp: string;
}

/**
 * Parameters of `interactions.sendFeedback`: a feedback action on an interaction that was
 * sent already. Feedback on an interaction not sent yet belongs in its `user_feedback`
 * (or `feedback_actions`) instead.
 *
 * @example
 * ```ts
 * await nebuly.interactions.sendFeedback({
 *   action: { slug: 'thumbs_down', text: 'Wrong airport' },
 *   metadata: { end_user: hashed, input: 'Flights to Paris?', output: 'Two a day from JFK.', timestamp: new Date() },
 * });
 * ```
 */
export interface SendFeedbackParams {
  /** What the user did. */
  action: ConversationFeedbackAction;
  /** Which interaction it is about, and when. */
  metadata: FeedbackMetadataInput;
}

/**
 * The body `interactions.sendFeedback` sends: {@link SendFeedbackParams} validated, the
 * timestamp in UTC.
 *
 * @example
 * ```ts
 * const body: SendFeedbackBody = { action: { slug: 'thumbs_up' }, metadata: { end_user: 'u', input: 'a', output: 'b', timestamp: '2026-03-01T10:05:00.000Z' } };
 * ```
 */
export interface SendFeedbackBody {
  /** What the user did. */
  action: ConversationFeedbackAction;
  /** Which interaction it is about, and when. */
  metadata: FeedbackMetadata;
}
