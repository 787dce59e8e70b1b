import { NebulyError } from '../core/errors.js';

/** What went wrong with a recording call; {@link RecordingError.code} tells which. */
export type RecordingErrorCode =
  /** A call on a conversation (or one of its turns) after the conversation ended. */
  | 'conversation_ended'
  /** A step, or a second `end()`, on a turn that had already ended. */
  | 'interaction_ended'
  /** Turns were still open when their conversation ended; they were sent with output `''`. */
  | 'interaction_open'
  /** `startConversation()` after `shutdown()`. */
  | 'recorder_shut_down'
  /** The conversation was over `maxConversationBytes`; its longest strings were cropped. */
  | 'conversation_cropped';

/**
 * A recording call that could not be honoured as made, reported to `onError` instead of
 * thrown into your code. The message says what was kept and what was not.
 *
 * @example
 * ```ts
 * new NebulyClient({
 *   onError(error) {
 *     if (error instanceof RecordingError && error.code === 'interaction_open') metrics.increment('unended_turns');
 *   },
 * });
 * ```
 */
export class RecordingError extends NebulyError {
  override name = 'RecordingError';
  /** What went wrong. */
  readonly code: RecordingErrorCode;
  /** The conversation concerned, when there is one. */
  readonly conversationId: string | undefined;

  constructor(code: RecordingErrorCode, message: string, conversationId?: string) {
    super(message);
    this.code = code;
    this.conversationId = conversationId;
  }
}

/** What {@link DeliveryError} and {@link QueueFullError} carry about the conversation. */
export interface UndeliveredConversation {
  /** The conversation's id: the `conversation_id` given to `startConversation`, or a generated one. */
  conversationId: string;
  /**
   * The request body that was (or would have been) sent, as JSON: send it again later
   * with `nebuly.conversations.send(JSON.parse(payload))`. Never holds the API key.
   */
  payload: string;
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
  /** Why the last attempt failed. */
  declare readonly cause: NebulyError;

  constructor(conversation: UndeliveredConversation, cause: NebulyError) {
    super(`Conversation ${conversation.conversationId} was not delivered: ${cause.message}`, { cause });
    this.conversationId = conversation.conversationId;
    this.payload = conversation.payload;
  }
}

/**
 * An ended conversation did not fit in the queue of unsent conversations
 * (`maxQueuedConversations` or `maxQueuedBytes`), so it was not sent; its
 * {@link QueueFullError.payload} is attached so that nothing is lost silently.
 *
 * @example
 * ```ts
 * new NebulyClient({
 *   onError(error) {
 *     if (error instanceof QueueFullError) spool.write(error.payload);
 *   },
 * });
 * ```
 */
export class QueueFullError extends NebulyError implements UndeliveredConversation {
  override name = 'QueueFullError';
  readonly conversationId: string;
  readonly payload: string;
  /** The bound that was reached. */
  readonly limit: 'maxQueuedConversations' | 'maxQueuedBytes';

  constructor(conversation: UndeliveredConversation, limit: QueueFullError['limit'], bound: number) {
    super(
      `Conversation ${conversation.conversationId} was not queued for sending: the queue is at its \`${limit}\` bound (${bound})`,
    );
    this.conversationId = conversation.conversationId;
    this.payload = conversation.payload;
    this.limit = limit;
  }
}
