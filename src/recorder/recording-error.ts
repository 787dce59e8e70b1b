// What the recorder's first-loaded part reports; the background's own errors are in
// errors.ts (docs/decisions/0004-pay-for-what-you-use.md).
import { NebulyError } from '../core/nebuly-error.js';

/** What went wrong with a recording call; {@link RecordingError.code} tells which. */
export type RecordingErrorCode =
  /** A call on a conversation (or one of its turns) after the conversation ended. */
  | 'conversation_ended'
  /** A step, or a second `end()`, on a turn that had already ended. */
  | 'interaction_ended'
  /** Turns were still open when their conversation ended; they were sent with output `''`. */
  | 'interaction_open'
  /**
   * Steps an integration had kept a place for never finished (a stream abandoned unread,
   * a framework run whose end was never reported): left out of the conversation sent.
   */
  | 'step_unfinished'
  /**
   * `nebuly.feedback()` for an interaction that no open conversation holds and no
   * conversation sent within `feedbackRetentionMs` did: nothing was recorded.
   */
  | 'feedback_unknown_interaction'
  /**
   * `nebuly.tag()` for an interaction that no open conversation holds and no
   * conversation sent within `feedbackRetentionMs` did: no tag was recorded.
   */
  | 'tags_unknown_interaction'
  /** `startConversation()` after `shutdown()`. */
  | 'recorder_shut_down'
  /** The conversation was over `maxConversationBytes`; its longest strings were cropped. */
  | 'conversation_cropped'
  /**
   * The conversation was the longest idle when a new one would have passed
   * `maxOpenConversations`: it was ended and sent early (not dropped).
   */
  | 'conversation_evicted'
  /**
   * The process exited with conversations open or unsent (`process.exit()` before
   * `shutdown()` finished, or the event loop emptied with `sendOnExit: false`).
   */
  | 'unsent_at_exit'
  /**
   * The conversation store lost data it held (a Redis restarted without persistence,
   * flushed, or evicting): its store method rejected with an error of this `code`. The
   * message says what the store knows it lost; `cause` is the store's error.
   */
  | 'store_lost';

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

  constructor(code: RecordingErrorCode, message: string, conversationId?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.conversationId = conversationId;
  }
}

/**
 * What a caught value says, for an error message: its `message` if it is an `Error`.
 *
 * @example
 * ```ts
 * report(new NebulyError(`the store failed: ${messageOf(cause)}`, { cause }));
 * ```
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
