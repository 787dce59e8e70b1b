/**
 * Who a span tree's conversation is with, and which conversation it is: the attributes
 * instrumentations use for them, read by the span processor's default resolvers.
 */
import { type OtelSpan, firstText } from './span.js';

/**
 * The attributes read for the end user, first found wins: OTel's `user.id` (also
 * OpenInference's) and `enduser.id`, the AI SDK's `experimental_telemetry.metadata`
 * (`ai.telemetry.metadata.*`), OpenLLMetry's association properties.
 *
 * @example
 * ```ts
 * span.setAttribute(END_USER_ATTRIBUTES[0], userHash); // 'user.id'
 * ```
 */
export const END_USER_ATTRIBUTES = [
  'user.id',
  'enduser.id',
  'ai.telemetry.metadata.userId',
  'ai.telemetry.metadata.user_id',
  'ai.telemetry.metadata.endUser',
  'ai.telemetry.metadata.end_user',
  'traceloop.association.properties.user_id',
  'traceloop.association.properties.userId',
] as const;

/**
 * The attributes read for the conversation id, first found wins: the GenAI conventions'
 * `gen_ai.conversation.id`, `session.id` (OpenInference's too), the AI SDK's metadata,
 * OpenLLMetry's association properties.
 *
 * @example
 * ```ts
 * span.setAttribute(CONVERSATION_ID_ATTRIBUTES[0], chatId); // 'gen_ai.conversation.id'
 * ```
 */
export const CONVERSATION_ID_ATTRIBUTES = [
  'gen_ai.conversation.id',
  'session.id',
  'ai.telemetry.metadata.conversationId',
  'ai.telemetry.metadata.conversation_id',
  'ai.telemetry.metadata.sessionId',
  'ai.telemetry.metadata.session_id',
  'traceloop.association.properties.conversation_id',
  'traceloop.association.properties.session_id',
  'traceloop.association.properties.sessionId',
] as const;

/**
 * The default end-user resolver: the first of {@link END_USER_ATTRIBUTES} on the span.
 *
 * @example
 * ```ts
 * new NebulySpanProcessor({ nebuly, endUser: (span) => defaultEndUser(span) ?? 'anonymous' });
 * ```
 */
export function defaultEndUser(span: OtelSpan): string | undefined {
  return firstText(span.attributes, END_USER_ATTRIBUTES);
}

/**
 * The default conversation-id resolver: the first of {@link CONVERSATION_ID_ATTRIBUTES}
 * on the span.
 *
 * @example
 * ```ts
 * new NebulySpanProcessor({ nebuly, conversationId: (span) => defaultConversationId(span) ?? span.attributes['thread.id'] as string });
 * ```
 */
export function defaultConversationId(span: OtelSpan): string | undefined {
  return firstText(span.attributes, CONVERSATION_ID_ATTRIBUTES);
}
