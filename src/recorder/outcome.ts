import type { NebulyError } from '../core/errors.js';

/**
 * What became of a conversation, the value of `conversation.end()`'s promise, which
 * never rejects. Every outcome but `delivered` and `empty` was also reported to `onError`.
 *
 * - `delivered`: the service accepted it (2xx).
 * - `failed`: it was sent but not accepted, after the client's retries, or `shutdown()`
 *   ran out of time; `error` is a `DeliveryError` holding the payload.
 * - `dropped`: it was never sent: the queue was full (a `QueueFullError` with the payloads of its burst),
 *   nothing recorded in it was valid (`ValidationError`), or it was started after
 *   `shutdown()` or with an invalid `end_user`.
 * - `empty`: no interaction was recorded, so there was nothing to send.
 *
 * @example
 * ```ts
 * const outcome = await conversation.end();
 * if (outcome.status === 'failed') console.warn(outcome.error.message);
 * ```
 */
export type ConversationOutcome =
  | { status: 'delivered'; conversationId: string }
  | { status: 'failed'; conversationId: string; error: NebulyError }
  | { status: 'dropped'; conversationId: string; error: NebulyError }
  | { status: 'empty'; conversationId: string };

/** The status of a {@link ConversationOutcome}. */
export type ConversationStatus = ConversationOutcome['status'];
