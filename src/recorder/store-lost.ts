import { messageOf, RecordingError } from './recording-error.js';

/**
 * A store's error that says it lost data (`code: 'store_lost'`, as `redisStore` raises
 * when Redis no longer has what it stored) as the {@link RecordingError} reported for it,
 * naming the conversation concerned; `undefined` for any other error.
 *
 * @example
 * ```ts
 * report(storeLost(cause, conversationId) ?? new NebulyError(`the store failed: ${messageOf(cause)}`, { cause }));
 * ```
 */
export function storeLost(cause: unknown, conversationId?: string): RecordingError | undefined {
  if (typeof cause !== 'object' || cause === null || (cause as { code?: unknown }).code !== 'store_lost') return undefined;
  const about = conversationId === undefined ? '' : ` (while handling conversation ${conversationId})`;
  return new RecordingError('store_lost', `The conversation store lost data it held${about}: ${messageOf(cause)}`, conversationId, { cause });
}
