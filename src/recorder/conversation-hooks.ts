/**
 * How a conversation and the recorder that started it talk: what it tells the recorder
 * (hooks), what the recorder may do with it (control), and how it begins (init).
 */
import type { ModelPrice } from '../core/model-price.js';
import type { NebulyError } from '../core/errors.js';
import type { FeedbackTokenMinter } from '../core/feedback-options.js';
import type { ConversationOutcome } from './outcome.js';
import type { Attachment } from '../types/store.js';
import type { InteractionRecord } from './record.js';

/**
 * Why a conversation ended: `end()`, the idle time-out, `shutdown()`, the event loop
 * emptying (`exit`, see `sendOnExit`), or `evicted`: it was the longest idle when a new
 * one would have passed `maxOpenConversations`.
 */
export type EndReason = 'end' | 'idle' | 'shutdown' | 'exit' | 'evicted';

/**
 * What every conversation of a recorder shares: its clock, its error reporter, and the
 * gate that `shutdown()` closes.
 * @example
 * ```ts
 * const context: ConversationContext = { now: Date.now, report: onError, gate: { closed: false } };
 * ```
 */
export interface ConversationContext {
  readonly now: () => number;
  /** Reports misuse at once (a call after the end); never throws. */
  readonly report: (error: NebulyError) => void;
  /** Closed at shutdown: every conversation of the recorder is then closed to recording. */
  readonly gate: RecordingGate;
  /** How `turn.feedbackToken()` asks the client for a token; none for a recorder made without a client. */
  readonly feedbackToken?: FeedbackTokenMinter | undefined;
  /** The client's `modelPrices`, for the integrations that price the steps they record. */
  readonly modelPrices?: Readonly<Record<string, ModelPrice>> | undefined;
}

/**
 * One per recorder, shared by its conversations: closing it closes all of them to
 * recording at once, in O(1) however many are open (`shutdown()` with 100,000 open
 * conversations set each one's flag in 48 ms).
 *
 * @example
 * ```ts
 * const gate: RecordingGate = { closed: false };
 * gate.closed = true; // every conversation sharing it now reports and ignores calls
 * ```
 */
export interface RecordingGate {
  closed: boolean;
}

/**
 * What a conversation tells the recorder that started it: a turn ended (its record is
 * to be checked and stored), a step kept for later settled, feedback came for a turn
 * already taken, and, once, that the conversation ended, with what was found wrong then
 * (open interactions, eviction), not reported yet; the recorder answers with the outcome.
 *
 * @example
 * ```ts
 * const hooks: ConversationHooks<Conversation> = { turnEnded, stepSettled, lateFeedback, ended: (conversation, reason, errors) => send(conversation, errors) };
 * ```
 */
export interface ConversationHooks<Conversation> {
  turnEnded(conversation: Conversation, record: InteractionRecord): void;
  stepSettled(conversation: Conversation, record: InteractionRecord): void;
  lateFeedback(conversation: Conversation, record: InteractionRecord, action: Record<string, unknown>): void;
  ended(conversation: Conversation, reason: EndReason, errors: NebulyError[]): Promise<ConversationOutcome>;
}

/**
 * What the recorder may do with a conversation it started and that is still open.
 * @example
 * ```ts
 * void conversationControl(conversation).finish('evicted');
 * ```
 */
export interface ConversationControl {
  /** Ends it (at shutdown, at exit, when idle, or to make room): it is sent. */
  finish(reason: EndReason): Promise<ConversationOutcome>;
  /**
   * Ends its open turns (reported as `interaction_open`), which then go to the store,
   * but not the conversation: for a store shared with other instances, which may go on
   * with it, when this process lets go of it (at shutdown, at exit, when idle).
   */
  closeTurns(reason: EndReason): void;
  /** How many of its turns are open (started, not ended): what a process exit loses of it with a shared store. */
  openTurns(): number;
  /** Attaches feedback or tags to its open turn `interactionId`; `false` when it has no such open turn. */
  attachToOpenTurn(interactionId: string, attachment: Attachment): boolean;
}

/**
 * How a conversation starts: usable, refused with the error that was reported, or left
 * out by `sampleRate` (it records nothing, and says nothing).
 */
export type ConversationInit =
  | { conversationId: string; key: string; endUser: string; tags: Record<string, string> | undefined }
  | { conversationId: string; key: string; refusal: NebulyError }
  | { conversationId: string; key: string; sampledOut: true };
