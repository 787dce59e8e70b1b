import type { Tags, TimestampInput } from './common.js';
import type { FeedbackAction } from './feedback.js';
import type { TraceStepInput, TraceStep } from './traces.js';

/**
 * The `interaction` object of `interactions.send`, as accepted.
 *
 * @example
 * ```ts
 * const interaction: InteractionInput = {
 *   conversation_id: 'support-4711',
 *   end_user: await hashEndUser('alice@example.com'),
 *   input: 'Can I change my flight?',
 *   output: 'Yes, until 24 hours before departure.',
 *   time_start: new Date(Date.now() - 1200),
 *   time_end: new Date(),
 * };
 * ```
 */
export interface InteractionInput {
  /** Groups interactions into a conversation. */
  conversation_id: string;
  /** What the user wrote. */
  input: string;
  /** The LLM's output, shown to the user as the assistant's answer. */
  output: string;
  /** When the LLM call started; the moment the user sent the input will do. */
  time_start: TimestampInput;
  /** When the user received the full answer. */
  time_end: TimestampInput;
  /**
   * The id or username that identifies the end user; send a hash (see `hashEndUser`) so
   * that nothing identifying leaves your system.
   */
  end_user: string;
  /**
   * `true` hides the input and output in the platform; only metadata and traces are
   * visible. The service's default is `false`.
   */
  hide_content?: boolean | undefined;
  /** Tags of the interaction; each becomes a filter in the platform. */
  tags?: Tags | undefined;
  /**
   * The A/B-test feature flags the interaction ran under (the flags asked of
   * `nebuly.variants()`): ties it to the experiment. A list, despite the singular name.
   */
  feature_flag?: string[] | undefined;
}

/**
 * The `interaction` object as sent: timestamps in UTC, as `toISOString()` gives them.
 *
 * @example
 * ```ts
 * const { interaction }: SendInteractionBody = interactionParams(params);
 * interaction.time_end; // '2026-03-01T10:00:01.000Z'
 * ```
 */
export interface Interaction extends Omit<InteractionInput, 'time_start' | 'time_end'> {
  /** When the LLM call started, ISO 8601 in UTC. */
  time_start: string;
  /** When the user received the full answer, ISO 8601 in UTC. */
  time_end: string;
}

/**
 * Parameters of `interactions.send`: one interaction with its trace and feedback.
 *
 * @example
 * ```ts
 * const params: SendInteractionParams = {
 *   interaction,
 *   traces: [{ model: 'gpt-4o-mini', messages: [{ role: 'user', content: interaction.input }], output: interaction.output }],
 *   user_feedback: [{ slug: 'thumbs_up' }],
 * };
 * await nebuly.interactions.send(params);
 * ```
 */
export interface SendInteractionParams {
  /** The exchange between the user and the assistant. */
  interaction: InteractionInput;
  /** The full trace of the agent or chain that produced the answer; may be empty. */
  traces: TraceStepInput[];
  /** What the user did with the answer. */
  user_feedback?: FeedbackAction[] | undefined;
  /** Whether the service anonymizes the data. The service's default is `true`. */
  anonymize?: boolean | undefined;
}

/**
 * The body `interactions.send` sends: {@link SendInteractionParams} validated, times in UTC.
 *
 * @example
 * ```ts
 * const body: SendInteractionBody = interactionParams(params); // validated, ready for fetch
 * await fetch(url, { method: 'POST', body: JSON.stringify(body) });
 * ```
 */
export interface SendInteractionBody {
  /** The exchange, as sent. */
  interaction: Interaction;
  /** The trace, as sent. */
  traces: TraceStep[];
  /** The feedback, as sent. */
  user_feedback?: FeedbackAction[] | undefined;
  /** Whether the service anonymizes the data. */
  anonymize?: boolean | undefined;
}
