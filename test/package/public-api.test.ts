import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as root from 'nebuly-client';
import * as schemas from 'nebuly-client/schemas';

const entry = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

// One program for every check here: building it is most of this file's time.
const program = ts.createProgram([entry('index.ts'), entry('schemas/public.ts')], {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
});
const checker = program.getTypeChecker();

function exportsOf(path: string): ts.Symbol[] {
  return checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(path)!)!);
}

/** Every name a module exports, types included, as TypeScript sees it. */
function exportedNames(path: string): string[] {
  return exportsOf(path).map((exported) => exported.name).sort();
}

/** What a hover shows for the first parameter of `Class.prototype[method]`. */
function parameterHover(className: string, method: string): { text: string; fields: Map<string, string> } {
  const exported = exportsOf(entry('index.ts')).find((symbol) => symbol.name === className)!;
  const classType = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(exported));
  const signature = checker.getSignaturesOfType(checker.getTypeOfSymbol(classType.getProperty(method)!), ts.SignatureKind.Call)[0]!;
  const parameter = checker.getTypeOfSymbol(signature.getParameters()[0]!);
  const fields = new Map(
    parameter.getProperties().map((field) => [field.name, ts.displayPartsToString(field.getDocumentationComment(checker))]),
  );
  return { text: checker.typeToString(parameter), fields };
}

const INTERNALS = ['tags', 'timestamp', 'userTimestamp', 'nonEmptyString', 'nonNegativeInt', 'toIssues', 'formatPath', 'traceStepBranch'];

/** The zod schemas and their enumerations: on `nebuly-client/schemas` only. */
const SCHEMAS = [
  'conversationFeedbackActionSchema', 'conversationInteractionSchema', 'deleteInteractionsParamsSchema',
  'deleteUsersParamsSchema', 'embeddingStepSchema', 'FEEDBACK_SLUGS', 'feedbackActionSchema', 'FILTER_KINDS',
  'interactionFilterSchema', 'interactionSchema', 'llmStepSchema', 'MESSAGE_ROLES', 'messageResponseSchema',
  'messageSchema', 'retrievalStepSchema', 'sendConversationParamsSchema', 'sendInteractionParamsSchema',
  'timeRangeSchema', 'traceStepSchema', 'userRecordResponseSchema', 'userRecordSchema', 'usersParamsSchema',
  'usersResponseSchema',
];

/** The request and response types: on the root and on `nebuly-client/schemas`. */
const WIRE_TYPES = [
  'TimestampInput', 'Tags', 'Message', 'MessageContent', 'MessageRole', 'LLMStep', 'LLMStepInput', 'RetrievalStep', 'RetrievalStepInput',
  'EmbeddingStep', 'EmbeddingStepInput', 'TraceStep', 'TraceStepInput', 'FeedbackSlug', 'FeedbackAction',
  'ConversationFeedbackAction', 'InteractionInput', 'Interaction', 'SendInteractionParams', 'SendInteractionBody',
  'ConversationInteractionInput', 'ConversationInteraction', 'SendConversationParams', 'SendConversationBody',
  'InteractionFilter', 'InteractionFilterKind', 'TimeRangeInput', 'DeleteInteractionsParams', 'DeleteInteractionsBody',
  'UserRecordInput', 'UserRecord', 'UsersParams', 'DeleteUsersParams', 'UserRecordResponse', 'UsersResponse',
  'MessageResponse', 'FeedbackMetadataInput', 'FeedbackMetadata', 'SendFeedbackParams', 'SendFeedbackBody',
  'VariantsParams', 'VariantsResponse', 'LookupVariant', 'Variant', 'PromptVariant', 'ModelVariant', 'RagSourceVariant',
  'ConfigParam', 'ConfigParamType', 'ListInteractionsParams', 'InteractionsPage', 'InteractionSummary', 'FeedbackType',
  'ExportInteractionsParams', 'ExportedInteraction', 'InteractionDetail', 'ConversationTurn', 'AddTagsParams', 'AddTagsBody',
  'TagsMetadataInput',
];

/** Schemas added after 0.1.0: on `nebuly-client/schemas` only. */
const NEW_SCHEMAS = [
  'feedbackMetadataSchema', 'sendFeedbackParamsSchema',
  'variantsParamsSchema', 'variantsResponseSchema', 'lookupVariantSchema', 'variantSchema', 'promptVariantSchema',
  'modelVariantSchema', 'ragSourceVariantSchema', 'configParamSchema', 'listInteractionsParamsSchema', 'closedTimeRangeSchema',
  'interactionsPageSchema', 'interactionSummarySchema', 'exportWindowParamsSchema', 'exportWindowResponseSchema',
  'exportedInteractionSchema', 'interactionDetailParamsSchema', 'interactionDetailSchema', 'conversationTurnSchema',
  'addTagsParamsSchema', 'tagsMetadataSchema',
];

/** The public API of the package root: values and types. Changing it is a decision. */
const ROOT_API = [
  // the client and its resources
  'NebulyClient', 'Interactions', 'Conversations', 'EligibleUsers', 'PlatformUsers',
  'ClientOptions', 'ModelPrice', 'Region', 'AcceptedResponse',
  'RequestOptions', 'LogLevel', 'Logger', 'LogFields', 'PagePromise', 'PageLike', 'InteractionExport', 'ExportWindow',
  // errors
  'NebulyError', 'ValidationError', 'Issue', 'APIError', 'BadRequestError', 'AuthenticationError',
  'PermissionDeniedError', 'NotFoundError', 'ConflictError', 'PayloadTooLargeError', 'UnprocessableEntityError',
  'RateLimitError', 'RedirectError', 'InternalServerError', 'ConnectionError', 'TimeoutError', 'AbortError', 'UnexpectedResponseError',
  ...WIRE_TYPES,
  // builders
  'interactionParams', 'InteractionParamsInput', 'conversationInteraction', 'llmStep', 'retrievalStep', 'embeddingStep',
  'feedbackAction', 'usdToMicroDollars', 'hashEndUser', 'HashEndUserOptions', 'FeedbackTokenOptions', 'FeedbackTokenParams',
  // the recorder
  'RecorderOptions', 'Conversation', 'StartConversationParams',
  'InteractionParams', 'Turn', 'EndInteractionParams', 'ShutdownOptions', 'DeliveryReport', 'ConversationOutcome', 'ConversationStatus',
  'ConversationTarget',
  'DeliveryError', 'QueueFullError', 'RecordingError', 'RecordingErrorCode', 'UndeliveredConversation',
  // the store of open conversations
  'memoryStore', 'MemoryStoreOptions', 'ConversationStore', 'ConversationClaim', 'StoredInteraction', 'SentInteraction',
  'MaybePromise', 'FeedbackParams', 'TagParams', 'Attachment',
  // privacy and control
  'maskPII', 'MASK_FAILED', 'MaskError', 'MaskErrorCode', 'MaskFallback',
  'Mask', 'MaskContext', 'IngestPayload', 'IngestPayloads', 'PayloadKind',
];

describe('the package root', () => {
  it('exports the public API and nothing else', () => {
    expect(exportedNames(entry('index.ts'))).toEqual([...ROOT_API].sort());
  });

  it('carries at most 40 runtime names, none of them a schema', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(40);
    for (const name of SCHEMAS) expect(root).not.toHaveProperty(name);
  });

  it('exports no internal helper', () => {
    for (const internal of INTERNALS) expect(root).not.toHaveProperty(internal);
  });

});

describe('nebuly-client/schemas', () => {
  it('exports every schema, the enumerations and the named types, and no internal helper', () => {
    expect(exportedNames(entry('schemas/public.ts'))).toEqual([...SCHEMAS, ...NEW_SCHEMAS, ...WIRE_TYPES].sort());
    for (const internal of INTERNALS) expect(schemas).not.toHaveProperty(internal);
  });
});

describe('parameter and response types', () => {
  it.each([
    ['Interactions', 'send', 'SendInteractionParams', 'traces'],
    ['Interactions', 'sendFeedback', 'SendFeedbackParams', 'metadata'],
    ['Interactions', 'delete', 'DeleteInteractionsParams', 'filters'],
    ['Conversations', 'send', 'SendConversationParams', 'conversation'],
    ['EligibleUsers', 'insert', 'UsersParams', 'users'],
    ['EligibleUsers', 'delete', 'DeleteUsersParams', 'users'],
    ['PlatformUsers', 'delete', 'DeleteUsersParams', 'users'],
    ['NebulyClient', 'variants', 'VariantsParams', 'feature_flags'],
    ['Interactions', 'list', 'ListInteractionsParams', 'time_range'],
    ['Interactions', 'export', 'ExportInteractionsParams', 'from'],
    ['Interactions', 'addTags', 'AddTagsParams', 'metadata'],
  ])('%s.%s takes a named type whose fields are documented in hovers', (className, method, typeName, field) => {
    const hover = parameterHover(className, method);
    expect(hover.text).toBe(typeName);
    expect(hover.fields.get(field)).toMatch(/\w+ \w+/);
    for (const [name, documentation] of hover.fields) expect(documentation, name).not.toBe('');
  });
});
