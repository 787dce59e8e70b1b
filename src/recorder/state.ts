import type { NebulyError } from '../core/errors.js';

/**
 * What a conversation and its turns share: one object, so that a turn checks "is my
 * conversation still open?" and records activity with plain field access.
 */
export interface ConversationState {
  readonly conversationId: string;
  /** `false` once the conversation ended; every later call is reported and ignored. */
  open: boolean;
  /**
   * The conversation was refused at start (an invalid `end_user`, or after shutdown) and
   * that was reported then; later calls on it are ignored without a report each.
   */
  readonly refused: boolean;
  /** When the last interaction, step or feedback was recorded, by {@link now}. */
  lastActivityAt: number;
  readonly now: () => number;
  readonly report: (error: NebulyError) => void;
}
