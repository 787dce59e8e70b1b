import * as z from 'zod/mini';
import { featureFlags, nonEmptyString, tags, timestamp } from './common.js';
import { feedbackActionSchema } from './feedback.js';
import { capIssues } from './issues.js';
import { traceStepSchema } from './traces.js';

/** The `interaction` object of the single-interaction form. */
export const interactionSchema = z.object({
  conversation_id: nonEmptyString,
  input: z.string(),
  output: z.string(),
  time_start: timestamp,
  time_end: timestamp,
  end_user: nonEmptyString,
  hide_content: z.optional(z.boolean()),
  tags: z.optional(tags),
  feature_flag: z.optional(featureFlags),
});

/** Body of `nebuly.interactions.send`. */
export const sendInteractionParamsSchema = z.object({
  interaction: interactionSchema,
  traces: z.array(traceStepSchema).check(capIssues),
  user_feedback: z.optional(z.array(feedbackActionSchema).check(capIssues)),
  /** The service's default is `true`. */
  anonymize: z.optional(z.boolean()),
});
