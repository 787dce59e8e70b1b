import * as z from 'zod/mini';
import { featureFlags, nonEmptyString, tags, timestamp } from './common.js';
import { conversationFeedbackActionSchema } from './feedback.js';
import { capIssues } from './issues.js';
import { traceStepSchema } from './traces.js';

/** One interaction of the bulk conversation form. */
export const conversationInteractionSchema = z.object({
  input: z.string(),
  output: z.string(),
  time_start: timestamp,
  time_end: timestamp,
  tags: z.optional(tags),
  feature_flag: z.optional(featureFlags),
  feedback_actions: z.optional(z.array(conversationFeedbackActionSchema).check(capIssues)),
  trace: z.optional(z.array(traceStepSchema).check(capIssues)),
});

/** Body of `nebuly.conversations.send`, the bulk endpoint. */
export const sendConversationParamsSchema = z.object({
  conversation: z.object({
    end_user: nonEmptyString,
    interactions: z.array(conversationInteractionSchema).check(capIssues),
  }),
});
