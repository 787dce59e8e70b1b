import * as z from 'zod/mini';

import { FEEDBACK_SLUGS } from './wire-fields.js';

export { FEEDBACK_SLUGS } from './wire-fields.js';

function feedbackSchema<V extends z.ZodMiniType<number, number>>(value: V) {
  return z
    .object({
      slug: z.enum(FEEDBACK_SLUGS),
      text: z.optional(z.string()),
      value: z.optional(value),
    })
    .check(
      z.superRefine((action, ctx) => {
        if (action.value !== undefined && action.slug !== 'rating') {
          ctx.issues.push({
            code: 'custom',
            path: ['value'],
            message: "is only used with slug 'rating'",
            input: action.value,
          });
        }
      }),
    );
}

/** A feedback action of the single-interaction form: `value` is an integer. */
export const feedbackActionSchema = feedbackSchema(z.int());

/** A feedback action of the bulk conversation form: `value` is a number. */
export const conversationFeedbackActionSchema = feedbackSchema(z.number());
