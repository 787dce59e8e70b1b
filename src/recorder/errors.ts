import { NebulyError } from '../core/nebuly-error.js';

// RecordingError and messageOf are declared apart, in recording-error.ts: the recorder's
// first-loaded part uses them, and what is declared here only its background stages.
export { messageOf, RecordingError, type RecordingErrorCode } from './recording-error.js';

/** What {@link DeliveryError} carries about its conversation, and {@link QueueFullError} about each of its own. */
export interface UndeliveredConversation {
  /** The conversation's id: the `conversation_id` given to `startConversation`, or a generated one. */
  conversationId: string;
  /**
   * The request body that was (or would have been) sent, as JSON: send it again later
   * with `nebuly.conversations.send(JSON.parse(payload))`. Never holds the API key.
   */
  payload: string;
  /**
   * The `Idempotency-Key` its sends carried (or would have carried): send it again with
   * the same key (`headers: { 'idempotency-key': key }`, as `nebuly replay` does) and a
   * service that already stored it stores it once. Set for every conversation and
   * interaction the recorder reports (an interaction the store did not take: its id).
   */
  idempotencyKey?: string | undefined;
}

/**
 * A conversation could not be delivered: the service refused it, or it kept failing
 * after every retry of the client's policy, or `shutdown()` ran out of time. The
 * conversation's {@link DeliveryError.payload} is attached, so nothing is lost silently;
 * {@link DeliveryError.cause} is the last error (an `APIError`, `ConnectionError`,
 * `TimeoutError` or `AbortError`).
 *
 * @example
 * ```ts
 * new NebulyClient({
 *   onError(error) {
 *     if (error instanceof DeliveryError) deadLetters.push(error.payload);
 *   },
 * });
 * ```
 */
export class DeliveryError extends NebulyError implements UndeliveredConversation {
  override name = 'DeliveryError';
  readonly conversationId: string;
  readonly payload: string;
  /** The `Idempotency-Key` of its sends (or the interaction's id, for one the store did not take); resend with it. */
  readonly idempotencyKey: string | undefined;
  /** Why the last attempt failed. */
  declare readonly cause: NebulyError;

  constructor(conversation: UndeliveredConversation, cause: NebulyError) {
    super(`Conversation ${conversation.conversationId} was not delivered: ${cause.message}`, { cause });
    this.conversationId = conversation.conversationId;
    this.payload = conversation.payload;
    this.idempotencyKey = conversation.idempotencyKey;
  }
}

/**
 * Ended conversations did not fit in the queue of unsent conversations (its
 * `maxQueuedBytes` bound, or `maxQueuedConversations` when you set one), so they were not
 * sent. One error covers every conversation refused in the same burst (those ended in the
 * same turn of the event loop), each with its payload in
 * {@link QueueFullError.conversations}, so that nothing is lost silently and a burst of
 * thousands gives one report, not thousands.
 *
 * @example
 * ```ts
 * new NebulyClient({
 *   onError(error) {
 *     if (error instanceof QueueFullError) for (const { payload } of error.conversations) spool.write(payload);
 *   },
 * });
 * ```
 */
export class QueueFullError extends NebulyError {
  override name = 'QueueFullError';
  /** Every conversation refused in the burst, in the order they ended, each with its payload. */
  readonly conversations: readonly UndeliveredConversation[];
  /** The bound that was reached first. */
  readonly limit: 'maxQueuedConversations' | 'maxQueuedBytes';

  constructor(conversations: readonly UndeliveredConversation[], limit: QueueFullError['limit'], bound: number) {
    super(
      `${conversations.length} conversation(s) were not queued for sending (${describeIds(conversations)}): ` +
        `the queue was at its \`${limit}\` bound (${bound}); their payloads are in \`conversations\``,
    );
    this.conversations = conversations;
    this.limit = limit;
  }
}

/** The first few ids, and how many more: a message stays one short line however large the burst. */
function describeIds(conversations: readonly UndeliveredConversation[]): string {
  const shown = conversations.slice(0, 3).map((conversation) => conversation.conversationId);
  const more = conversations.length - shown.length;
  return shown.join(', ') + (more > 0 ? `, and ${more} more` : '');
}
