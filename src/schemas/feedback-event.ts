import * as z from 'zod/mini';
import { nonEmptyString, timestamp } from './common.js';
import { conversationFeedbackActionSchema } from './feedback.js';

/**
 * What identifies the interaction a late feedback belongs to: the service links it to an
 * interaction it already received with the same `end_user`, `input` and `output`, whose
 * `time_end` is before `timestamp`.
 */
export const feedbackMetadataSchema = z.object({
  input: z.string(),
  output: z.string(),
  end_user: nonEmptyString,
  timestamp,
  anonymize: z.optional(z.boolean()),
});

/** Body of `nebuly.interactions.sendFeedback`: feedback on an interaction sent earlier. */
export const sendFeedbackParamsSchema = z.object({
  action: conversationFeedbackActionSchema,
  metadata: feedbackMetadataSchema,
});
