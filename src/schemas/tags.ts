import * as z from 'zod/mini';
import { nonEmptyString, tags, timestamp } from './common.js';

/**
 * What finds the interaction that tags sent after the fact are for: its end user and
 * `time_start`, and its input and output when given (without them, the service decides
 * by the time and the end user alone).
 */
export const tagsMetadataSchema = z.object({
  end_user: nonEmptyString,
  time_start: timestamp,
  input: z.optional(z.string()),
  output: z.optional(z.string()),
});

/**
 * Body of `nebuly.interactions.addTags`: tags added to a stored interaction, those of the
 * same name replaced, the others left as they are.
 */
export const addTagsParamsSchema = z.object({
  tags,
  metadata: tagsMetadataSchema,
});
