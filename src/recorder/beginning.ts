import { NebulyError, ValidationError } from '../core/nebuly-error.js';
import type { ConversationInit } from './conversation.js';
import { RecordingError } from './recording-error.js';
import { newId } from './ids.js';
import { newKey, sharedKey } from './keys.js';
import { checkStartParams, type StartConversationParams } from './start.js';

/** Which call begins the conversation: `nebuly.conversation()` (resumable by id) or `startConversation()`. */
export type BeginCall = 'conversation' | 'startConversation';

/** What decides how a conversation begins, besides its parameters. */
export interface BeginContext {
  /** Whether `shutdown()` was called: then nothing more is recorded. */
  shutDown: boolean;
  /** Whether an end user is in the sample (`sampleRate`). */
  sampled: (endUser: string) => boolean;
  report: (error: NebulyError) => void;
}

/**
 * How a conversation begins: recorded, refused (after `shutdown()`, or with no usable
 * `end_user`: the reason reported), or left out by `sampleRate` (decided once, by end
 * user, and free from then on). Bad tags or a bad id are reported and left out.
 *
 * @example
 * ```ts
 * const init = conversationInit({ end_user: 'u' }, 'startConversation', { shutDown: false, sampled: () => true, report });
 * ```
 */
export function conversationInit(params: StartConversationParams, call: BeginCall, context: BeginContext): ConversationInit {
  if (context.shutDown) {
    const conversationId = newId();
    const refusal = new RecordingError('recorder_shut_down', `${call}() after shutdown(): conversation ${conversationId} is not recorded`, conversationId);
    context.report(refusal);
    return { conversationId, key: newKey(conversationId), refusal };
  }
  const start = checkStartParams(params, call === 'conversation');
  let error: NebulyError | undefined;
  if (start.issues.length > 0) {
    error = new ValidationError(start.issues, `${call} params (conversation ${start.conversationId})`);
    context.report(error);
  }
  const { conversationId } = start;
  const key = call === 'conversation' && start.idGiven ? sharedKey(conversationId) : newKey(conversationId);
  if (start.endUser === undefined) return { conversationId, key, refusal: error ?? new NebulyError('no end_user') };
  if (!context.sampled(start.endUser)) return { conversationId, key, sampledOut: true };
  return { conversationId, key, endUser: start.endUser, tags: start.tags };
}
