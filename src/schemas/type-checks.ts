/**
 * Compile-time proof that each named type is exactly what its schema infers: a field
 * added, removed, renamed, made optional or retyped on either side fails `npm run
 * typecheck`. Nothing here runs.
 */
import type * as z from 'zod/mini';
import type { conversationInteractionSchema, sendConversationParamsSchema } from './conversations.js';
import type { conversationFeedbackActionSchema, feedbackActionSchema } from './feedback.js';
import type { feedbackMetadataSchema, sendFeedbackParamsSchema } from './feedback-event.js';
import type { deleteInteractionsParamsSchema, interactionFilterSchema, timeRangeSchema } from './filters.js';
import type { interactionSchema, sendInteractionParamsSchema } from './interactions.js';
import type {
  conversationTurnSchema,
  exportedInteractionSchema,
  interactionDetailSchema,
  interactionsPageSchema,
  interactionSummarySchema,
  listInteractionsParamsSchema,
} from './reading.js';
import type { messageResponseSchema } from './responses.js';
import type { addTagsParamsSchema, tagsMetadataSchema } from './tags.js';
import type {
  configParamSchema,
  lookupVariantSchema,
  modelVariantSchema,
  promptVariantSchema,
  ragSourceVariantSchema,
  variantSchema,
  variantsParamsSchema,
  variantsResponseSchema,
} from './variants.js';
import type { embeddingStepSchema, llmStepSchema, messageSchema, retrievalStepSchema, traceStepSchema } from './traces.js';
import type {
  deleteUsersParamsSchema,
  userRecordResponseSchema,
  userRecordSchema,
  usersParamsSchema,
  usersResponseSchema,
} from './users.js';
import type * as T from '../types/index.js';

/** Deep, both-ways equality of two types: neither may have what the other lacks. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? Fields<A, B> : false) : false;
/** Objects also need the same named keys, and the same optional ones. */
type Fields<A, B> = [A] extends [readonly unknown[]]
  ? true
  : [A] extends [object]
    ? Both<Mutual<keyof Named<A>, keyof Named<B>>, Mutual<OptionalKeys<Named<A>>, OptionalKeys<Named<B>>>>
    : true;
// Keys are compared as plain unions: comparing two instantiations of one generic alias
// lets TypeScript answer from the alias's variance instead of the keys.
type Mutual<X, Y> = [X] extends [Y] ? ([Y] extends [X] ? true : false) : false;
type Both<P, Q> = P extends true ? Q : false;
/** An object less its index signatures (`[field: string]: unknown`). */
type Named<O> = { [K in keyof O as string extends K ? never : number extends K ? never : K]: O[K] };
type OptionalKeys<O> = { [K in keyof O]-?: object extends Pick<O, K> ? K : never }[keyof O];
type Expect<Condition extends true> = Condition;

/**
 * One entry per named type; a `false` among them is a compile error.
 *
 * @internal
 *
 * @example
 * ```ts
 * // Nothing to call: `npm run typecheck` fails when an entry is `false`.
 * type Proof = SchemaAgreement;
 * ```
 */
export type SchemaAgreement = [
  Expect<Same<T.Message, z.output<typeof messageSchema>>>,
  Expect<Same<T.Message, z.input<typeof messageSchema>>>,
  Expect<Same<T.LLMStepInput, z.input<typeof llmStepSchema>>>,
  Expect<Same<T.LLMStep, z.output<typeof llmStepSchema>>>,
  Expect<Same<T.RetrievalStepInput, z.input<typeof retrievalStepSchema>>>,
  Expect<Same<T.RetrievalStep, z.output<typeof retrievalStepSchema>>>,
  Expect<Same<T.EmbeddingStepInput, z.input<typeof embeddingStepSchema>>>,
  Expect<Same<T.EmbeddingStep, z.output<typeof embeddingStepSchema>>>,
  // traceStepSchema is typed with these two; the kinds' own schemas are what they must be.
  Expect<Same<T.TraceStepInput, z.input<typeof llmStepSchema | typeof retrievalStepSchema | typeof embeddingStepSchema>>>,
  Expect<Same<T.TraceStep, z.output<typeof llmStepSchema | typeof retrievalStepSchema | typeof embeddingStepSchema>>>,
  Expect<Same<T.TraceStep, z.output<typeof traceStepSchema>>>,
  Expect<Same<T.FeedbackAction, z.input<typeof feedbackActionSchema>>>,
  Expect<Same<T.FeedbackAction, z.output<typeof feedbackActionSchema>>>,
  Expect<Same<T.ConversationFeedbackAction, z.output<typeof conversationFeedbackActionSchema>>>,
  Expect<Same<T.FeedbackSlug, z.output<typeof feedbackActionSchema>['slug']>>,
  Expect<Same<T.InteractionInput, z.input<typeof interactionSchema>>>,
  Expect<Same<T.Interaction, z.output<typeof interactionSchema>>>,
  Expect<Same<T.SendInteractionParams, z.input<typeof sendInteractionParamsSchema>>>,
  Expect<Same<T.SendInteractionBody, z.output<typeof sendInteractionParamsSchema>>>,
  Expect<Same<T.ConversationInteractionInput, z.input<typeof conversationInteractionSchema>>>,
  Expect<Same<T.ConversationInteraction, z.output<typeof conversationInteractionSchema>>>,
  Expect<Same<T.SendConversationParams, z.input<typeof sendConversationParamsSchema>>>,
  Expect<Same<T.SendConversationParams['conversation'], z.input<typeof sendConversationParamsSchema>['conversation']>>,
  Expect<Same<T.SendConversationBody, z.output<typeof sendConversationParamsSchema>>>,
  Expect<Same<T.SendConversationBody['conversation'], z.output<typeof sendConversationParamsSchema>['conversation']>>,
  Expect<Same<T.InteractionFilter, z.output<typeof interactionFilterSchema>>>,
  Expect<Same<T.InteractionFilter, z.input<typeof interactionFilterSchema>>>,
  Expect<Same<T.InteractionFilterKind, z.output<typeof interactionFilterSchema>['kind']>>,
  Expect<Same<T.TimeRangeInput, z.input<typeof timeRangeSchema>>>,
  Expect<Same<T.DeleteInteractionsParams, z.input<typeof deleteInteractionsParamsSchema>>>,
  Expect<Same<T.DeleteInteractionsBody, z.output<typeof deleteInteractionsParamsSchema>>>,
  Expect<Same<NonNullable<T.DeleteInteractionsBody['time_range']>, z.output<typeof timeRangeSchema>>>,
  Expect<Same<T.UserRecordInput, z.input<typeof userRecordSchema>>>,
  Expect<Same<T.UserRecord, z.output<typeof userRecordSchema>>>,
  Expect<Same<T.UsersParams, z.input<typeof usersParamsSchema>>>,
  Expect<Same<T.DeleteUsersParams, z.input<typeof deleteUsersParamsSchema>>>,
  Expect<Same<T.UserRecordResponse, z.output<typeof userRecordResponseSchema>>>,
  Expect<Same<T.UsersResponse, z.output<typeof usersResponseSchema>>>,
  Expect<Same<T.MessageResponse, z.output<typeof messageResponseSchema>>>,
  Expect<Same<T.FeedbackMetadataInput, z.input<typeof feedbackMetadataSchema>>>,
  Expect<Same<T.FeedbackMetadata, z.output<typeof feedbackMetadataSchema>>>,
  Expect<Same<T.SendFeedbackParams, z.input<typeof sendFeedbackParamsSchema>>>,
  Expect<Same<T.SendFeedbackBody, z.output<typeof sendFeedbackParamsSchema>>>,
  Expect<Same<T.VariantsParams, z.input<typeof variantsParamsSchema>>>,
  Expect<Same<T.ConfigParam, z.output<typeof configParamSchema>>>,
  Expect<Same<T.PromptVariant, z.output<typeof promptVariantSchema>>>,
  Expect<Same<T.ModelVariant, z.output<typeof modelVariantSchema>>>,
  Expect<Same<T.RagSourceVariant, z.output<typeof ragSourceVariantSchema>>>,
  Expect<Same<T.Variant, z.output<typeof variantSchema>>>,
  Expect<Same<T.LookupVariant, z.output<typeof lookupVariantSchema>>>,
  Expect<Same<T.VariantsResponse, z.output<typeof variantsResponseSchema>>>,
  Expect<Same<T.TagsMetadataInput, z.input<typeof tagsMetadataSchema>>>,
  Expect<Same<T.AddTagsParams, z.input<typeof addTagsParamsSchema>>>,
  Expect<Same<T.AddTagsBody, z.output<typeof addTagsParamsSchema>>>,
  Expect<Same<T.ListInteractionsParams, z.input<typeof listInteractionsParamsSchema>>>,
  Expect<Same<T.InteractionSummary, z.output<typeof interactionSummarySchema>>>,
  Expect<Same<T.InteractionsPage, z.output<typeof interactionsPageSchema>>>,
  Expect<Same<T.ExportedInteraction, z.output<typeof exportedInteractionSchema>>>,
  Expect<Same<T.ConversationTurn, z.output<typeof conversationTurnSchema>>>,
  Expect<Same<T.InteractionDetail, z.output<typeof interactionDetailSchema>>>,
];
