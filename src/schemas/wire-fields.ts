/**
 * The fields of the wire's objects and their enums, as plain data: what the recorder copies from a
 * recording call and what cropping keeps whole, without loading the schemas (and zod)
 * that describe them. `wire-fields.test.ts` holds each table equal to its schema: the
 * same names in the same order, optional where the schema is, identifying where the
 * schema's field is an identifier, an enum or a timestamp.
 */

/**
 * How a field is sent: `id` identifies rather than carries content (an identifier, an
 * enum, a timestamp: never cropped); `value` carries content; a trailing `?` marks a
 * field that may be left out.
 *
 * @example
 * ```ts
 * const kind: FieldKind = 'value?';
 * ```
 */
export type FieldKind = 'id' | 'value' | 'value?';

/**
 * The fields of one wire object, in its schema's order.
 *
 * @example
 * ```ts
 * const fields: WireFields = { role: 'id', content: 'value' };
 * ```
 */
export type WireFields = Readonly<Record<string, FieldKind>>;

/**
 * The longest window `exportInteractions` answers: 7 days, in milliseconds ("The maximum
 * allowed time range for an export is 7 days"). `interactions.export` splits a range into
 * windows of this length.
 *
 * @example
 * ```ts
 * const windows = Math.ceil((to - from) / EXPORT_WINDOW_MS);
 * ```
 */
export const EXPORT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Roles of a chat-completion message. */
export const MESSAGE_ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/** The kinds of interaction filter. */
export const FILTER_KINDS = [
  'user_intent',
  'negative_user_intent',
  'keyword',
  'user_feedback',
  'tag',
  'type_of_problem',
  'topic',
  'user',
  'user_query',
] as const;

/** The kinds of user feedback the service knows. */
export const FEEDBACK_SLUGS = [
  'thumbs_up',
  'thumbs_down',
  'copy_input',
  'copy_output',
  'paste',
  'comment',
  'regenerate',
  'edit',
  'rating',
] as const;

/** A message of an LLM step (`messageSchema`). */
export const MESSAGE_FIELDS = { role: 'id', content: 'value' } as const satisfies WireFields;

/** An LLM step (`llmStepSchema`). */
export const LLM_STEP_FIELDS = {
  model: 'id',
  messages: 'value',
  output: 'value',
  input_tokens: 'value?',
  output_tokens: 'value?',
  cost: 'value?',
} as const satisfies WireFields;

/** A retrieval step (`retrievalStepSchema`). */
export const RETRIEVAL_STEP_FIELDS = { source: 'id', input: 'value', outputs: 'value' } as const satisfies WireFields;

/** An embedding step (`embeddingStepSchema`). */
export const EMBEDDING_STEP_FIELDS = { model: 'id', input: 'value', input_tokens: 'value?' } as const satisfies WireFields;

/** A feedback action of the bulk conversation form (`conversationFeedbackActionSchema`). */
export const FEEDBACK_ACTION_FIELDS = { slug: 'id', text: 'value?', value: 'value?' } as const satisfies WireFields;

/** One interaction of the bulk conversation form (`conversationInteractionSchema`). */
export const CONVERSATION_INTERACTION_FIELDS = {
  input: 'value',
  output: 'value',
  time_start: 'id',
  time_end: 'id',
  tags: 'value?',
  feature_flag: 'value?',
  feedback_actions: 'value?',
  trace: 'value?',
} as const satisfies WireFields;

/** The `conversation` object of the bulk conversation form (`sendConversationParamsSchema`). */
export const CONVERSATION_FIELDS = { end_user: 'id', interactions: 'value' } as const satisfies WireFields;

/**
 * The names of a table's fields, in its order.
 *
 * @example
 * ```ts
 * wireFieldNames(MESSAGE_FIELDS); // ['role', 'content']
 * ```
 */
export function wireFieldNames<F extends WireFields>(fields: F): (keyof F & string)[] {
  return Object.keys(fields) as (keyof F & string)[];
}
