import type { InteractionFilter } from '../schemas/index.js';
import type { StoredInteraction } from './stored.js';

/** A time window as the server received it: `start` inclusive, `end` exclusive, each optional. */
export interface TimeRange {
  start?: string | undefined;
  end?: string | undefined;
}

function containsIgnoringCase(text: string, values: readonly string[]): boolean {
  const haystack = text.toLowerCase();
  return values.some((value) => haystack.includes(value.toLowerCase()));
}

function tagEquals(interaction: StoredInteraction, tag: string, values: readonly string[]): boolean {
  const value = Object.hasOwn(interaction.tags, tag) ? interaction.tags[tag] : undefined;
  return value !== undefined && values.includes(value);
}

/** Whether one filter matches: any of its values (they are OR'd). */
function matchesFilter(interaction: StoredInteraction, filter: InteractionFilter): boolean {
  const { values } = filter;
  switch (filter.kind) {
    case 'keyword':
      return containsIgnoringCase(interaction.input, values) || containsIgnoringCase(interaction.output, values);
    case 'user_query':
      return containsIgnoringCase(interaction.input, values);
    case 'user':
      return values.includes(interaction.end_user);
    case 'user_feedback':
      return interaction.feedback_actions.some((action) => values.includes(action.slug));
    case 'tag':
      // The schema makes `tag` required for this kind; without it nothing matches.
      return filter.tag !== undefined && tagEquals(interaction, filter.tag, values);
    // These kinds need the platform's own classification of an interaction (intent,
    // problem type, topic), which a reference cannot do; it reads the interaction's tag of
    // the same name instead, so tests can still exercise them deterministically.
    case 'user_intent':
    case 'negative_user_intent':
    case 'type_of_problem':
    case 'topic':
      return tagEquals(interaction, filter.kind, values);
  }
}

/** Whether `time_start` falls in the window: `start` inclusive, `end` exclusive. */
function inTimeRange(interaction: StoredInteraction, range: TimeRange | undefined): boolean {
  if (range === undefined) return true;
  const time = Date.parse(interaction.time_start);
  if (range.start !== undefined && time < Date.parse(range.start)) return false;
  if (range.end !== undefined && time >= Date.parse(range.end)) return false;
  return true;
}

/** Whether an interaction matches every filter (they are AND'd) and the time window. */
export function matchesAll(
  interaction: StoredInteraction,
  filters: readonly InteractionFilter[],
  range: TimeRange | undefined,
): boolean {
  return inTimeRange(interaction, range) && filters.every((filter) => matchesFilter(interaction, filter));
}
