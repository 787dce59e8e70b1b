/**
 * `nebuly-client`: the client of the Nebuly API, the conversation recorder, the builders
 * of wire objects, the errors, and every request and response type.
 *
 * Where to start:
 * - {@link NebulyClient}: its options ({@link ClientOptions}) and its resources,
 *   {@link Interactions}, {@link Conversations}, {@link EligibleUsers}, {@link PlatformUsers}.
 * - The recorder: {@link NebulyClient.conversation}, {@link NebulyClient.startConversation},
 *   {@link Conversation}, {@link Turn}, {@link RecorderOptions}, the store of open
 *   conversations ({@link ConversationStore}, {@link memoryStore}), and what
 *   {@link ConversationOutcome} tells.
 * - Errors: every one is a {@link NebulyError}; {@link ValidationError} for bad input,
 *   {@link APIError} and its subclasses for the service's answers, {@link ConnectionError}
 *   and {@link TimeoutError} for no answer.
 * - Builders of wire objects: {@link interactionParams}, {@link llmStep},
 *   {@link usdToMicroDollars}, {@link hashEndUser}.
 * - Parameters and answers: {@link SendInteractionParams}, {@link SendConversationParams},
 *   {@link UsersParams}, {@link UsersResponse}, …
 *
 * The zod schemas of the wire objects are in `nebuly-client/schemas`.
 *
 * @example
 * ```ts
 * import { NebulyClient } from 'nebuly-client';
 *
 * const nebuly = new NebulyClient({ apiKey: process.env.NEBULY_API_KEY, region: 'eu' });
 * const { users } = await nebuly.eligibleUsers.list();
 * ```
 *
 * @module nebuly-client
 */
export { NebulyClient } from './client.js';
// Types only: users reach the resources through `nebuly.interactions` and the like.
export type { Interactions } from './resources/interactions.js';
export type { Conversations } from './resources/conversations.js';
export type { EligibleUsers } from './resources/eligible-users.js';
export type { PlatformUsers } from './resources/platform-users.js';
// The defaults are in docs/options.md (generated from the option specs), not exported:
// the root keeps to what a user calls or catches (at most 40 runtime names).
export type { ClientOptions, ModelPrice, Region } from './core/options.js';
export type { AcceptedResponse } from './core/http.js';
export type { RequestOptions } from './core/request-options.js';
export type { PagePromise, PageLike } from './resources/page-promise.js';
export type { InteractionExport, ExportWindow } from './resources/interaction-export.js';
export type { LogFields, Logger, LogLevel } from './core/logging.js';
export { NebulyError, ValidationError } from './core/nebuly-error.js';
export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  DeliveryError,
  InternalServerError,
  MASK_FAILED,
  MaskError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  QueueFullError,
  RateLimitError,
  RedirectError,
  TimeoutError,
  UnexpectedResponseError,
  UnprocessableEntityError,
} from './root-errors.js';
export type { Issue } from './utils/issues.js';
export type * from './types/index.js';
export type { RecorderOptions } from './core/recorder-options.js';
export {
  conversationInteraction,
  embeddingStep,
  feedbackAction,
  hashEndUser,
  interactionParams,
  llmStep,
  retrievalStep,
  usdToMicroDollars,
  type HashEndUserOptions,
  type InteractionParamsInput,
} from './builders/index.js';
export { Conversation, type InteractionParams, type StartConversationParams } from './recorder/conversation.js';
export { Turn, type EndInteractionParams } from './recorder/turn.js';
export type { ShutdownOptions } from './recorder/recorder.js';
export type { ConversationTarget } from './recorder/conversation-target.js';
export type { DeliveryReport } from './recorder/delivery-report.js';
export type { ConversationOutcome, ConversationStatus } from './recorder/outcome.js';
export { memoryStore, type MemoryStoreOptions } from './recorder/store/memory-store.js';
export type { FeedbackParams, TagParams } from './recorder/late-params.js';
export type { FeedbackTokenOptions, FeedbackTokenParams } from './core/feedback-options.js';
export type {
  Attachment,
  ConversationClaim,
  ConversationStore,
  MaybePromise,
  SentInteraction,
  StoredInteraction,
} from './types/store.js';
export { RecordingError, type RecordingErrorCode } from './recorder/recording-error.js';
export type { UndeliveredConversation } from './recorder/errors.js';
// From the modules that declare them, not privacy/index.ts: through it, Node's build
// counted the masks of the lazy modules as loaded at import (scripts/one-lazy-file.ts).
export type { MaskErrorCode, MaskFallback } from './privacy/errors.js';
export { maskPII } from './privacy/mask-pii.js';
export type { IngestPayload, IngestPayloads, Mask, MaskContext, PayloadKind } from './core/privacy-options.js';
