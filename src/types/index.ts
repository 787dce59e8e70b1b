/**
 * The request and response types, written out field by field with the spec's meaning of
 * each, so that hovers and the API reference show them. ../schemas/type-checks.ts holds
 * each one equal to what its schema infers.
 */
export type { Tags, TimestampInput } from './common.js';
export type { ConversationFeedbackAction, FeedbackAction, FeedbackSlug } from './feedback.js';
export type { FeedbackMetadata, FeedbackMetadataInput, SendFeedbackBody, SendFeedbackParams } from './feedback-event.js';
export type {
  ConversationInteraction,
  ConversationInteractionInput,
  SendConversationBody,
  SendConversationParams,
} from './conversations.js';
export type {
  DeleteInteractionsBody,
  DeleteInteractionsParams,
  InteractionFilter,
  InteractionFilterKind,
  TimeRangeInput,
} from './filters.js';
export type { Interaction, InteractionInput, SendInteractionBody, SendInteractionParams } from './interactions.js';
export type {
  ConversationTurn,
  ExportedInteraction,
  ExportInteractionsParams,
  FeedbackType,
  InteractionDetail,
  InteractionsPage,
  InteractionSummary,
  ListInteractionsParams,
} from './reading.js';
export type { AddTagsBody, AddTagsParams, TagsMetadataInput } from './tags.js';
export type {
  EmbeddingStep,
  EmbeddingStepInput,
  LLMStep,
  LLMStepInput,
  Message,
  MessageContent,
  MessageRole,
  RetrievalStep,
  RetrievalStepInput,
  TraceStep,
  TraceStepInput,
} from './traces.js';
export type {
  DeleteUsersParams,
  MessageResponse,
  UserRecord,
  UserRecordInput,
  UserRecordResponse,
  UsersParams,
  UsersResponse,
} from './users.js';
export type {
  ConfigParam,
  ConfigParamType,
  LookupVariant,
  ModelVariant,
  PromptVariant,
  RagSourceVariant,
  Variant,
  VariantsParams,
  VariantsResponse,
} from './variants.js';
