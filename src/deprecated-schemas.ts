/**
 * The schemas the package root exported in 0.1.0, kept there for one more minor version
 * so that upgrading breaks nothing: they now live in `nebuly-client/schemas`.
 */
import * as schemas from './schemas/public.js';

/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const conversationInteractionSchema = schemas.conversationInteractionSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const sendConversationParamsSchema = schemas.sendConversationParamsSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const conversationFeedbackActionSchema = schemas.conversationFeedbackActionSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const FEEDBACK_SLUGS = schemas.FEEDBACK_SLUGS;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const feedbackActionSchema = schemas.feedbackActionSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const deleteInteractionsParamsSchema = schemas.deleteInteractionsParamsSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const FILTER_KINDS = schemas.FILTER_KINDS;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const interactionFilterSchema = schemas.interactionFilterSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const timeRangeSchema = schemas.timeRangeSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const interactionSchema = schemas.interactionSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const sendInteractionParamsSchema = schemas.sendInteractionParamsSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const messageResponseSchema = schemas.messageResponseSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const embeddingStepSchema = schemas.embeddingStepSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const llmStepSchema = schemas.llmStepSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const MESSAGE_ROLES = schemas.MESSAGE_ROLES;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const messageSchema = schemas.messageSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const retrievalStepSchema = schemas.retrievalStepSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const traceStepSchema = schemas.traceStepSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const deleteUsersParamsSchema = schemas.deleteUsersParamsSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const userRecordResponseSchema = schemas.userRecordResponseSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const userRecordSchema = schemas.userRecordSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const usersParamsSchema = schemas.usersParamsSchema;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const usersResponseSchema = schemas.usersResponseSchema;
