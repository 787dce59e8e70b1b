/**
 * `nebuly-client/schemas`: the wire schemas (zod 4, `zod/mini`), for code that validates
 * its own data the way the client does before sending, or a server that validates what
 * it receives. The client needs none of this: its methods validate already.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { sendInteractionParamsSchema } from 'nebuly-client/schemas';
 *
 * const result = z.safeParse(sendInteractionParamsSchema, JSON.parse(body));
 * if (!result.success) console.log(result.error.issues);
 * ```
 *
 * @module nebuly-client/schemas
 */
export { conversationInteractionSchema, sendConversationParamsSchema } from './conversations.js';
export { conversationFeedbackActionSchema, FEEDBACK_SLUGS, feedbackActionSchema } from './feedback.js';
export { feedbackMetadataSchema, sendFeedbackParamsSchema } from './feedback-event.js';
export { deleteInteractionsParamsSchema, FILTER_KINDS, interactionFilterSchema, timeRangeSchema } from './filters.js';
export { interactionSchema, sendInteractionParamsSchema } from './interactions.js';
export {
  closedTimeRangeSchema,
  conversationTurnSchema,
  exportedInteractionSchema,
  exportWindowParamsSchema,
  exportWindowResponseSchema,
  interactionDetailParamsSchema,
  interactionDetailSchema,
  interactionsPageSchema,
  interactionSummarySchema,
  listInteractionsParamsSchema,
} from './reading.js';
export { messageResponseSchema } from './responses.js';
export { addTagsParamsSchema, tagsMetadataSchema } from './tags.js';
export {
  embeddingStepSchema,
  llmStepSchema,
  MESSAGE_ROLES,
  messageSchema,
  retrievalStepSchema,
  traceStepSchema,
} from './traces.js';
export {
  deleteUsersParamsSchema,
  userRecordResponseSchema,
  userRecordSchema,
  usersParamsSchema,
  usersResponseSchema,
} from './users.js';
export {
  configParamSchema,
  lookupVariantSchema,
  modelVariantSchema,
  promptVariantSchema,
  ragSourceVariantSchema,
  variantSchema,
  variantsParamsSchema,
  variantsResponseSchema,
} from './variants.js';
export type * from '../types/index.js';
