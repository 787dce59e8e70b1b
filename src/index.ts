export { NebulyClient } from './client.js';
export { Interactions } from './resources/interactions.js';
export { Conversations } from './resources/conversations.js';
export { EligibleUsers } from './resources/eligible-users.js';
export { PlatformUsers } from './resources/platform-users.js';
export {
  CLIENT_DEFAULTS,
  REGION_BASE_URLS,
  type ClientOptions,
  type Region,
} from './core/options.js';
export type { AcceptedResponse } from './core/http.js';
export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NebulyError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
  UnprocessableEntityError,
  ValidationError,
} from './core/errors.js';
export type { Issue } from './schemas/issues.js';
export type * from './types/index.js';
export * from './deprecated-schemas.js';
export {
  RECORDER_DEFAULTS,
  type RecorderOptions,
  type ResolvedRecorderOptions,
} from './recorder/options.js';
export {
  conversationInteraction,
  embeddingStep,
  feedbackAction,
  hashEndUser,
  interactionParams,
  llmStep,
  MICRO_DOLLARS_PER_USD,
  retrievalStep,
  usdToMicroDollars,
  type HashEndUserOptions,
  type InteractionParamsInput,
} from './builders/index.js';
export { Conversation, type InteractionParams, type StartConversationParams } from './recorder/conversation.js';
export { Turn, type EndInteractionParams } from './recorder/turn.js';
export type { ShutdownOptions } from './recorder/recorder.js';
export type { ConversationOutcome, ConversationStatus } from './recorder/outcome.js';
export {
  DeliveryError,
  QueueFullError,
  RecordingError,
  type RecordingErrorCode,
  type UndeliveredConversation,
} from './recorder/errors.js';
