import * as z from 'zod/mini';
import { nonEmptyString, timestamp } from './common.js';
import { interactionFilterSchema } from './filters.js';
import { capIssues } from './issues.js';
import { EXPORT_WINDOW_MS } from './wire-fields.js';

export { EXPORT_WINDOW_MS };

/** How many interactions a page of `interactions.list` asks for when `limit` is left out. */
export const DEFAULT_PAGE_LIMIT = 100;

/** The check that the timestamp `later` comes after `earlier`, reported at `later`. */
function endsAfter<E extends string, L extends string>(earlier: E, later: L) {
  return z.superRefine<Record<E | L, string>>((range, ctx) => {
    if (Date.parse(range[later]) <= Date.parse(range[earlier])) {
      ctx.issues.push({ code: 'custom', path: [later], message: `must be after ${earlier}`, input: range[later] });
    }
  });
}

/** A window with both ends: `start` inclusive, `end` exclusive, `end` after `start`. */
export const closedTimeRangeSchema = z.object({ start: timestamp, end: timestamp }).check(endsAfter('start', 'end'));

/** Body of one page of `nebuly.interactions.list`. */
export const listInteractionsParamsSchema = z.object({
  time_range: closedTimeRangeSchema,
  filters: z._default(z.array(interactionFilterSchema).check(capIssues), []),
  limit: z._default(z.int().check(z.positive('must be 1 or more')), DEFAULT_PAGE_LIMIT),
  offset: z._default(z.int().check(z.nonnegative('must be zero or more')), 0),
});

/** The kinds of feedback a listed interaction may carry. */
export const FEEDBACK_TYPES = ['negative_implicit', 'negative_explicit', 'positive_implicit', 'positive_explicit'] as const;

/** One row of `interactions.list` (the service's InteractionsQuery). */
export const interactionSummarySchema = z.looseObject({
  id: z.string(),
  input_text: z.string(),
  output_text: z.string(),
  user_query: z.optional(z.nullable(z.string())),
  end_user: z.string(),
  timestamp: z.string(),
  warning_message: z.optional(z.nullable(z.string())),
  negative_intent_message: z.optional(z.nullable(z.string())),
  feedback_type: z.optional(z.nullable(z.enum(FEEDBACK_TYPES))),
});

/** Answer of one page of `interactions.list`. */
export const interactionsPageSchema = z.looseObject({
  total: z.optional(z.int()),
  offset: z.optional(z.int()),
  limit: z.optional(z.int()),
  data: z.array(interactionSummarySchema).check(capIssues),
});

/**
 * Query of one export window: `date_gte` included, `date_lt` excluded, at most 7 days
 * apart (the service's limit; `interactions.export` splits a longer range).
 */
export const exportWindowParamsSchema = z
  .object({ date_gte: timestamp, date_lt: timestamp })
  .check(
    endsAfter('date_gte', 'date_lt'),
    z.superRefine((window, ctx) => {
      if (Date.parse(window.date_lt) - Date.parse(window.date_gte) > EXPORT_WINDOW_MS) {
        ctx.issues.push({ code: 'custom', path: ['date_lt'], message: 'must be at most 7 days after date_gte', input: window.date_lt });
      }
    }),
  );

const nullableText = z.nullable(z.string());

/** The fields an exported interaction and an interaction's detail share (the service's InteractionResp). */
const exportedFields = {
  interaction_id: z.string(),
  input: z.string(),
  output: z.string(),
  history: z.array(z.array(z.string())),
  actions: z.array(z.string()),
  topics: z.array(z.string()),
  frustration_cause: nullableText,
  user_id: z.string(),
  user_group_profile: nullableText,
  tags: z.record(z.string(), z.string()),
  intent: nullableText,
  topic: nullableText,
  warning_business: nullableText,
  warning_model: nullableText,
};

/** One interaction of an export window. */
export const exportedInteractionSchema = z.looseObject(exportedFields);

/** Answer of one export window: every interaction in it, no paging. */
export const exportWindowResponseSchema = z.array(exportedInteractionSchema).check(capIssues);

/**
 * Params of `nebuly.interactions.get`: the id of a listed interaction, put in the path.
 * `.` and `..` are refused: a URL resolves them, even encoded, to another path.
 */
export const interactionDetailParamsSchema = z.object({
  interaction_id: nonEmptyString.check(z.refine((id) => id !== '.' && id !== '..', 'must be an interaction id, not a path segment')),
});

/** One interaction of a detail's conversation: the previous, this one (`is_chosen`), the following. */
export const conversationTurnSchema = z.looseObject({
  input: z.string(),
  output: z.string(),
  timestamp: z.string(),
  is_chosen: z.boolean(),
});

/** Answer of `nebuly.interactions.get` (the service's InteractionDetailResp). */
export const interactionDetailSchema = z.looseObject({
  ...exportedFields,
  conversation: z.array(conversationTurnSchema).check(capIssues),
});

/** The range of `nebuly.interactions.export`: `from` included, `to` excluded, `to` after `from`. */
export const exportRangeSchema = z.object({ from: timestamp, to: timestamp }).check(endsAfter('from', 'to'));
