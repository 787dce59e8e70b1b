/**
 * How the reference answers the reading endpoints (list, export, detail) from what it
 * stored. The platform's own analysis (topics, intents, warnings) is not something a
 * reference can do: those fields are read from the interaction's tags of the same name
 * (`topic`, `user_intent`), else `null` or empty.
 */
import type { ConversationTurn, ExportedInteraction, FeedbackType, InteractionDetail, InteractionSummary } from '../types/reading.js';
import type { StoredInteraction } from './stored.js';

/** The feedback kind a listed interaction shows, from the slugs it got; the last one that says something wins. */
const FEEDBACK_TYPE_OF_SLUG: Readonly<Record<string, FeedbackType>> = {
  thumbs_up: 'positive_explicit',
  thumbs_down: 'negative_explicit',
  copy_output: 'positive_implicit',
  copy_input: 'positive_implicit',
  paste: 'positive_implicit',
  regenerate: 'negative_implicit',
  edit: 'negative_implicit',
};

function feedbackTypeOf(slugs: readonly string[]): FeedbackType | undefined {
  let type: FeedbackType | undefined;
  for (const slug of slugs) type = Object.hasOwn(FEEDBACK_TYPE_OF_SLUG, slug) ? FEEDBACK_TYPE_OF_SLUG[slug] : type;
  return type;
}

/** The order the reading endpoints answer in: by `time_start`, then as received. */
export function byTimeStart(a: StoredInteraction, b: StoredInteraction): number {
  return Date.parse(a.time_start) - Date.parse(b.time_start);
}

/**
 * One row of `get-interactions`.
 *
 * @example
 * ```ts
 * summaryOf(stored, ['thumbs_up']).feedback_type; // 'positive_explicit'
 * ```
 */
export function summaryOf(interaction: StoredInteraction, slugs: readonly string[]): InteractionSummary {
  const summary: InteractionSummary = {
    id: interaction.id,
    input_text: interaction.input,
    output_text: interaction.output,
    user_query: interaction.input,
    end_user: interaction.end_user,
    timestamp: interaction.time_start,
  };
  const type = feedbackTypeOf(slugs);
  if (type !== undefined) summary.feedback_type = type;
  return summary;
}

function tagOrNull(interaction: StoredInteraction, name: string): string | null {
  return Object.hasOwn(interaction.tags, name) ? (interaction.tags[name] ?? null) : null;
}

/**
 * One item of an export window: `history` the `[input, output]` of the interactions of
 * its conversation before it, `actions` the feedback slugs it got.
 *
 * @example
 * ```ts
 * exportedOf(stored, earlier, ['thumbs_up']).actions; // ['thumbs_up']
 * ```
 */
export function exportedOf(interaction: StoredInteraction, earlier: readonly StoredInteraction[], slugs: readonly string[]): ExportedInteraction {
  const topic = tagOrNull(interaction, 'topic');
  return {
    interaction_id: interaction.id,
    input: interaction.input,
    output: interaction.output,
    history: earlier.map((previous) => [previous.input, previous.output]),
    actions: [...slugs],
    topics: topic === null ? [] : [topic],
    frustration_cause: null,
    user_id: interaction.end_user,
    user_group_profile: null,
    tags: { ...interaction.tags },
    intent: tagOrNull(interaction, 'user_intent'),
    topic,
    warning_business: null,
    warning_model: null,
  };
}

/**
 * An interaction's detail: its export form, and its conversation, the previous, this
 * (`is_chosen`) and the following interaction.
 *
 * @example
 * ```ts
 * detailOf(conversation, 1, slugs).conversation.map((turn) => turn.is_chosen); // [false, true, false]
 * ```
 */
export function detailOf(conversation: readonly StoredInteraction[], index: number, slugs: readonly string[]): InteractionDetail {
  const chosen = conversation[index] as StoredInteraction;
  const around: ConversationTurn[] = conversation.slice(Math.max(0, index - 1), index + 2).map((turn) => ({
    input: turn.input,
    output: turn.output,
    timestamp: turn.time_start,
    is_chosen: turn === chosen,
  }));
  return { ...exportedOf(chosen, conversation.slice(0, index), slugs), conversation: around };
}
