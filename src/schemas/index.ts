/**
 * The wire format, written once. The client validates with these schemas, the reference
 * server validates with them, and every request and response type is inferred from them.
 */
import type * as z from 'zod/mini';
import type { sendConversationParamsSchema, conversationInteractionSchema } from './conversations.js';
import type { conversationFeedbackActionSchema, feedbackActionSchema } from './feedback.js';
import type {
  deleteInteractionsParamsSchema,
  interactionFilterSchema,
  timeRangeSchema,
} from './filters.js';
import type { interactionSchema, sendInteractionParamsSchema } from './interactions.js';
import type { messageResponseSchema } from './responses.js';
import type {
  embeddingStepSchema,
  llmStepSchema,
  messageSchema,
  retrievalStepSchema,
} from './traces.js';
import type {
  deleteUsersParamsSchema,
  userRecordResponseSchema,
  userRecordSchema,
  usersParamsSchema,
  usersResponseSchema,
} from './users.js';

export * from './common.js';
export * from './conversations.js';
export * from './feedback.js';
export * from './filters.js';
export * from './interactions.js';
export * from './issues.js';
export * from './json.js';
export * from './responses.js';
export * from './traces.js';
export * from './users.js';

/** A timestamp as accepted: a `Date` or an ISO 8601 string. */
export type TimestampInput = Date | string;

/** A chat-completion message of an LLM step. */
export type Message = z.output<typeof messageSchema>;
/** An LLM step as accepted. */
export type LLMStepInput = z.input<typeof llmStepSchema>;
/** An LLM step as sent. */
export type LLMStep = z.output<typeof llmStepSchema>;
/** A retrieval step as accepted. */
export type RetrievalStepInput = z.input<typeof retrievalStepSchema>;
/** A retrieval step as sent. */
export type RetrievalStep = z.output<typeof retrievalStepSchema>;
/** An embedding step as accepted. */
export type EmbeddingStepInput = z.input<typeof embeddingStepSchema>;
/** An embedding step as sent. */
export type EmbeddingStep = z.output<typeof embeddingStepSchema>;

/** A feedback action of the single-interaction form, as accepted and sent. */
export type FeedbackAction = z.output<typeof feedbackActionSchema>;
/** A feedback action of the bulk conversation form. */
export type ConversationFeedbackAction = z.output<typeof conversationFeedbackActionSchema>;
/** The slug of a feedback action. */
export type FeedbackSlug = FeedbackAction['slug'];

/** The `interaction` object of the single-interaction form, as accepted. */
export type InteractionInput = z.input<typeof interactionSchema>;
/** The `interaction` object of the single-interaction form, as sent. */
export type Interaction = z.output<typeof interactionSchema>;
/** Parameters of `interactions.send`. */
export type SendInteractionParams = z.input<typeof sendInteractionParamsSchema>;
/** Body of `interactions.send` as sent. */
export type SendInteractionBody = z.output<typeof sendInteractionParamsSchema>;

/** One interaction of a conversation, as accepted. */
export type ConversationInteractionInput = z.input<typeof conversationInteractionSchema>;
/** One interaction of a conversation, as sent. */
export type ConversationInteraction = z.output<typeof conversationInteractionSchema>;
/** Parameters of `conversations.send`. */
export type SendConversationParams = z.input<typeof sendConversationParamsSchema>;
/** Body of `conversations.send` as sent. */
export type SendConversationBody = z.output<typeof sendConversationParamsSchema>;

/** One filter of interaction deletion. */
export type InteractionFilter = z.output<typeof interactionFilterSchema>;
/** The kind of an interaction filter. */
export type InteractionFilterKind = InteractionFilter['kind'];
/** A time window as accepted. */
export type TimeRangeInput = z.input<typeof timeRangeSchema>;
/** Parameters of `interactions.delete`. */
export type DeleteInteractionsParams = z.input<typeof deleteInteractionsParamsSchema>;
/** Body of `interactions.delete` as sent. */
export type DeleteInteractionsBody = z.output<typeof deleteInteractionsParamsSchema>;

/** A user record as accepted (PlatformUser / EligibleUser). */
export type UserRecordInput = z.input<typeof userRecordSchema>;
/** A user record as sent. */
export type UserRecord = z.output<typeof userRecordSchema>;
/** Parameters of insert and update, eligible and platform users alike. */
export type UsersParams = z.input<typeof usersParamsSchema>;
/** Parameters of `eligibleUsers.delete`. */
export type DeleteUsersParams = z.input<typeof deleteUsersParamsSchema>;
/** A user record as the service answers it. */
export type UserRecordResponse = z.output<typeof userRecordResponseSchema>;
/** Answer of insert, update and list. */
export type UsersResponse = z.output<typeof usersResponseSchema>;
/** An answer that carries a confirmation message. */
export type MessageResponse = z.output<typeof messageResponseSchema>;
