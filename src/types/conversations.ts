import type { Tags, TimestampInput } from './common.js';
import type { ConversationFeedbackAction } from './feedback.js';
import type { TraceStep, TraceStepInput } from './traces.js';

/**
 * One interaction of a conversation sent in bulk, as accepted.
 *
 * @example
 * ```ts
 * const interaction: ConversationInteractionInput = {
 *   input: 'Can I change my flight?',
 *   output: 'Yes, until 24 hours before departure.',
 *   time_start: '2026-03-01T10:00:00Z',
 *   time_end: '2026-03-01T10:00:02Z',
 *   trace: [{ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Can I change my flight?' }], output: 'Yes.' }],
 *   feedback_actions: [{ slug: 'thumbs_up' }],
 * };
 * ```
 */
export interface ConversationInteractionInput {
  /** What the user wrote. */
  input: string;
  /** The LLM's output, shown to the user. */
  output: string;
  /** When the LLM call started. */
  time_start: TimestampInput;
  /** When the LLM call ended, the full answer received. */
  time_end: TimestampInput;
  /** Tags of the interaction; each becomes a filter in the platform. */
  tags?: Tags | undefined;
  /**
   * The A/B-test feature flags the interaction ran under (the flags asked of
   * `nebuly.variants()`): ties it to the experiment. A list, despite the singular name.
   */
  feature_flag?: string[] | undefined;
  /** What the user did with the answer. */
  feedback_actions?: ConversationFeedbackAction[] | undefined;
  /** The steps that produced the answer. */
  trace?: TraceStepInput[] | undefined;
}

/**
 * One interaction of a conversation as sent: timestamps in UTC, as `toISOString()` gives them.
 *
 * @example
 * ```ts
 * const sent: ConversationInteraction = conversationInteraction({ input: 'Hi', output: 'Hello', time_start: new Date(), time_end: new Date() });
 * sent.time_start; // '2026-03-01T10:00:00.000Z'
 * ```
 */
export interface ConversationInteraction extends Omit<ConversationInteractionInput, 'time_start' | 'time_end' | 'trace'> {
  /** When the LLM call started, ISO 8601 in UTC. */
  time_start: string;
  /** When the LLM call ended, ISO 8601 in UTC. */
  time_end: string;
  /** The steps that produced the answer. */
  trace?: TraceStep[] | undefined;
}

/**
 * Parameters of `conversations.send`: a whole conversation of one user, sent in one
 * request once it has ended.
 *
 * @example
 * ```ts
 * await nebuly.conversations.send({
 *   conversation: { end_user: await hashEndUser('alice@example.com'), interactions: [interaction] },
 * });
 * ```
 */
export interface SendConversationParams {
  /** The conversation of one user with the assistant. */
  conversation: {
    /** The id or username that identifies the end user; send a hash (see `hashEndUser`). */
    end_user: string;
    /** The conversation's interactions, in order. */
    interactions: ConversationInteractionInput[];
  };
}

/**
 * The body `conversations.send` sends: {@link SendConversationParams} validated, times in UTC.
 *
 * @example
 * ```ts
 * const body: SendConversationBody = JSON.parse(deliveryError.payload);
 * ```
 */
export interface SendConversationBody {
  /** The conversation, as sent. */
  conversation: {
    /** The id or username that identifies the end user. */
    end_user: string;
    /** The conversation's interactions, as sent. */
    interactions: ConversationInteraction[];
  };
}
