import type { TimestampInput } from './common.js';
import type { InteractionFilter } from './filters.js';

/**
 * Parameters of `nebuly.interactions.list`.
 *
 * @example
 * ```ts
 * const params: ListInteractionsParams = {
 *   time_range: { start: '2026-10-01T00:00:00Z', end: '2026-10-08T00:00:00Z' },
 *   filters: [{ kind: 'user', values: [endUser] }],
 * };
 * ```
 */
export interface ListInteractionsParams {
  /** The window: `start` inclusive, `end` exclusive and after `start`. */
  time_range: { start: TimestampInput; end: TimestampInput };
  /** Filters, AND'd; the values of one are OR'd. None: every interaction in the window. */
  filters?: InteractionFilter[] | undefined;
  /** How many a page holds, 1 or more. @default 100 */
  limit?: number | undefined;
  /** How many to skip: where the (first) page starts. @default 0 */
  offset?: number | undefined;
}

/**
 * The kind of feedback a listed interaction carries.
 *
 * @example
 * ```ts
 * const unhappy = (type: FeedbackType | null | undefined) => type?.startsWith('negative') === true;
 * ```
 */
export type FeedbackType = 'negative_implicit' | 'negative_explicit' | 'positive_implicit' | 'positive_explicit';

/**
 * One interaction as `interactions.list` answers it.
 *
 * @example
 * ```ts
 * for await (const row of nebuly.interactions.list({ time_range })) console.log(row.id, row.input_text);
 * ```
 */
export interface InteractionSummary {
  /** The interaction's id, for `interactions.get`. */
  id: string;
  /** What the user wrote. */
  input_text: string;
  /** The answer. */
  output_text: string;
  /** The user's query, when the platform told it apart from the input. */
  user_query?: string | null | undefined;
  /** The end user. */
  end_user: string;
  /** When the interaction happened, ISO 8601. */
  timestamp: string;
  /** A warning the platform raised on it. */
  warning_message?: string | null | undefined;
  /** The negative intent the platform found in it. */
  negative_intent_message?: string | null | undefined;
  /** The kind of feedback it got, if any. */
  feedback_type?: FeedbackType | null | undefined;
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * One page of `interactions.list`.
 *
 * @example
 * ```ts
 * const { total, data }: InteractionsPage = await nebuly.interactions.list({ time_range, limit: 50 });
 * ```
 */
export interface InteractionsPage {
  /** How many interactions match, all pages together. */
  total?: number | undefined;
  /** Where this page starts. */
  offset?: number | undefined;
  /** The page size asked. */
  limit?: number | undefined;
  /** The interactions of this page. */
  data: InteractionSummary[];
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * Parameters of `nebuly.interactions.export`: a range of any length, asked in windows of
 * at most 7 days.
 *
 * @example
 * ```ts
 * const params: ExportInteractionsParams = { from: '2026-10-01T00:00:00Z', to: new Date(), signal: AbortSignal.timeout(600_000) };
 * ```
 */
export interface ExportInteractionsParams {
  /** The first moment of the range, included. */
  from: TimestampInput;
  /** The end of the range, excluded; after `from`. */
  to: TimestampInput;
  /** Stops the export: the iteration rejects with an `AbortError`. */
  signal?: AbortSignal | undefined;
}

/**
 * One interaction as the export and the detail give it (the service's InteractionResp).
 *
 * @example
 * ```ts
 * for await (const item of nebuly.interactions.export({ from, to })) console.log(item.interaction_id, item.tags);
 * ```
 */
export interface ExportedInteraction {
  /** The interaction's id. */
  interaction_id: string;
  /** What the user wrote. */
  input: string;
  /** The answer. */
  output: string;
  /** The earlier exchanges of its conversation. */
  history: string[][];
  /** What the user did with the answer (feedback actions). */
  actions: string[];
  /** The topics the platform found. */
  topics: string[];
  /** Why the user was frustrated, when the platform found out. */
  frustration_cause: string | null;
  /** The end user. */
  user_id: string;
  /** The end user's group profile. */
  user_group_profile: string | null;
  /** Its tags. */
  tags: Record<string, string>;
  /** The user's intent. */
  intent: string | null;
  /** The topic. */
  topic: string | null;
  /** A business warning. */
  warning_business: string | null;
  /** A model warning. */
  warning_model: string | null;
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * One interaction of a detail's conversation.
 *
 * @example
 * ```ts
 * const current = detail.conversation.find((turn: ConversationTurn) => turn.is_chosen);
 * ```
 */
export interface ConversationTurn {
  input: string;
  output: string;
  /** When it happened, ISO 8601. */
  timestamp: string;
  /** Whether it is the interaction asked for. */
  is_chosen: boolean;
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * The answer of `nebuly.interactions.get`: the interaction and its conversation.
 *
 * @example
 * ```ts
 * const detail: InteractionDetail = await nebuly.interactions.get(row.id);
 * ```
 */
export interface InteractionDetail extends ExportedInteraction {
  /** The previous, this (`is_chosen`) and the following interactions of its conversation. */
  conversation: ConversationTurn[];
}
