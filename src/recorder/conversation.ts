import type { NebulyError } from '../core/errors.js';
import { RecordingError } from './errors.js';
import { copyPlainObject, fieldsOf } from './fields.js';
import { IdleTimer } from './idle-timer.js';
import { newId } from './ids.js';
import type { ConversationOutcome } from './outcome.js';
import type { ConversationRecord, InteractionRecord } from './record.js';
import type { ConversationState } from './state.js';
import { Turn } from './turn.js';

export type { StartConversationParams } from './start.js';

/** Parameters of `conversation.interaction`. */
export interface InteractionParams {
  /** What the user asked. */
  input: string;
  /** Tags of this interaction; they win over the conversation's tags of the same name. */
  tags?: Record<string, string> | undefined;
}

/**
 * Why a conversation ended: `end()`, the idle time-out, `shutdown()`, the event loop
 * emptying (`exit`, see `sendOnExit`), or `evicted`: it was the longest idle when a new
 * one would have passed `maxOpenConversations`.
 */
export type EndReason = 'end' | 'idle' | 'shutdown' | 'exit' | 'evicted';

/**
 * What every conversation of a recorder shares: its clock, time-out and error reporter.
 * @example
 * ```ts
 * const context: ConversationContext = { now: Date.now, idleTimeoutMs: 900_000, report: onError };
 * ```
 */
export interface ConversationContext {
  readonly now: () => number;
  readonly idleTimeoutMs: number;
  /** Reports misuse at once (a call after the end); never throws. */
  readonly report: (error: NebulyError) => void;
}

/**
 * What a conversation hands over when it ends, once, whatever the reason.
 * @example
 * ```ts
 * const onEnd: OnConversationEnd = ({ record, errors }) => publish(record, errors);
 * ```
 */
export interface EndedConversation {
  readonly record: ConversationRecord;
  /** What was found wrong while ending it (open interactions, eviction); not reported yet. */
  readonly errors: readonly NebulyError[];
}

/**
 * Receives an ended conversation and answers with what became of it.
 * @example
 * ```ts
 * new Conversation(context, init, async ({ record }) => ({ status: 'empty', conversationId: record.conversationId }));
 * ```
 */
export type OnConversationEnd = (ended: EndedConversation) => Promise<ConversationOutcome>;

/**
 * What the recorder may do with a conversation it started and that is still open.
 * @example
 * ```ts
 * const control = conversationControl(conversation);
 * if (now() - control.lastActivityAt() > limit) void control.finish('evicted');
 * ```
 */
export interface ConversationControl {
  /** Ends it (at shutdown, at exit, or to make room). */
  finish(reason: EndReason): Promise<ConversationOutcome>;
  /** When it last saw an interaction, step or feedback. */
  lastActivityAt(): number;
}

/** How a conversation starts: usable, or refused with the error that was reported. */
export type ConversationInit =
  | { conversationId: string; endUser: string; tags: Record<string, string> | undefined }
  | { conversationId: string; refusal: NebulyError };

/** The end of the message about interactions still open when their conversation ended. */
const OPEN_INTERACTIONS_ENDED: Record<EndReason, string> = {
  end: 'when conversation.end() was called',
  idle: 'when the conversation was ended for being idle',
  shutdown: 'when shutdown() ended the conversation',
  exit: 'when the conversation was ended as the process was about to exit',
  evicted: 'when the conversation was ended early to stay within maxOpenConversations',
};

let controlOf: (conversation: Conversation) => ConversationControl;

/**
 * @internal How the recorder that started an open conversation ends it early.
 * @example
 * ```ts
 * void conversationControl(conversation).finish('shutdown');
 * ```
 */
export function conversationControl(conversation: Conversation): ConversationControl {
  return controlOf(conversation);
}

/**
 * A conversation being recorded: its interactions are kept in memory and sent in one
 * request to the bulk endpoint when it ends, by {@link Conversation.end}, by the idle
 * time-out, or by `nebuly.shutdown()`. Get one from `nebuly.startConversation()`.
 *
 * No method throws: misuse and invalid data go to the client's `onError`.
 *
 * @example
 * ```ts
 * const conversation = nebuly.startConversation({ end_user: await hashEndUser(userId), tags: { channel: 'web' } });
 * const turn = conversation.interaction({ input: 'Hi' });
 * turn.llm({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!' });
 * turn.end({ output: 'Hello!' });
 * const outcome = await conversation.end(); // { status: 'delivered', conversationId }
 * ```
 */
export class Conversation {
  /** The `conversation_id` given to `startConversation`, or a generated UUID. */
  readonly id: string;

  readonly #onEnd: OnConversationEnd;
  readonly #state: ConversationState;
  readonly #endUser: string;
  readonly #tags: Record<string, string> | undefined;
  readonly #interactions: InteractionRecord[] = [];
  readonly #idle: IdleTimer | undefined;
  #outcome: Promise<ConversationOutcome> | undefined;

  /**
   * @internal Conversations come from `nebuly.startConversation()`. `onEnd` receives the
   * record once, when the conversation ends; a refused conversation never ends.
   */
  constructor(context: ConversationContext, init: ConversationInit, onEnd: OnConversationEnd) {
    this.id = init.conversationId;
    this.#onEnd = onEnd;
    const refused = 'refusal' in init;
    this.#state = {
      conversationId: init.conversationId,
      open: !refused,
      refused,
      lastActivityAt: context.now(),
      now: context.now,
      report: context.report,
    };
    if ('refusal' in init) {
      this.#endUser = '';
      this.#tags = undefined;
      this.#outcome = Promise.resolve({ status: 'dropped', conversationId: this.id, error: init.refusal });
      return;
    }
    this.#endUser = init.endUser;
    this.#tags = init.tags;
    this.#idle = new IdleTimer({
      timeoutMs: context.idleTimeoutMs,
      now: context.now,
      lastActivityAt: () => this.#state.lastActivityAt,
      onIdle: () => void this.#finish('idle'),
    });
  }

  static {
    controlOf = (conversation) => ({
      finish: (reason) => conversation.#finish(reason),
      lastActivityAt: () => conversation.#state.lastActivityAt,
    });
  }

  /** Whether the conversation has ended (or was refused at start); recording then stops. */
  get ended(): boolean {
    return !this.#state.open;
  }

  /**
   * Starts an interaction: the user's `input`, now (`time_start`). Record its steps on the
   * returned {@link Turn} and end it with `turn.end({ output })`. Interactions are sent
   * in the order they were started.
   */
  interaction(params: InteractionParams): Turn {
    const state = this.#state;
    const now = state.now();
    const { input, tags } = fieldsOf(params, ['input', 'tags'] as const);
    const record: InteractionRecord = {
      id: newId(),
      input,
      output: undefined,
      timeStart: now,
      timeEnd: Number.NaN,
      ended: false,
      // A copy, for the same reason arrays are copied: the caller's object may change.
      // Anything else is kept as it is, to be reported when the conversation ends.
      tags: copyPlainObject(tags),
      trace: [],
      feedback: undefined,
    };
    if (state.open) {
      this.#interactions.push(record);
      state.lastActivityAt = now;
    } else if (!state.refused) {
      state.report(
        new RecordingError(
          'conversation_ended',
          `conversation.interaction() on conversation ${this.id} after it ended: not recorded`,
          this.id,
        ),
      );
    }
    // A turn of an ended conversation still works as an object; each of its calls is
    // reported and ignored.
    return new Turn(state, record);
  }

  /**
   * Ends the conversation and sends it, with every interaction recorded, in one request.
   * Resolves when it was delivered or given up; never rejects: the outcome says what
   * happened (failures also go to `onError`). Calling it again returns the same promise.
   *
   * An interaction still open is sent as it is, with output `''` and `time_end` = now,
   * and reported to `onError`. A conversation with no interaction sends nothing
   * (`status: 'empty'`).
   *
   * In serverless functions, await it (or pass it to `waitUntil`) before the function returns.
   */
  end(): Promise<ConversationOutcome> {
    return this.#finish('end');
  }

  #finish(reason: EndReason): Promise<ConversationOutcome> {
    if (this.#outcome !== undefined) return this.#outcome;
    // Settled below; set first so that an `onError` handler that calls `end()` while this
    // runs gets the same promise instead of ending the conversation twice.
    let settle!: (outcome: ConversationOutcome | Promise<ConversationOutcome>) => void;
    this.#outcome = new Promise((resolve) => {
      settle = resolve;
    });
    const state = this.#state;
    state.open = false;
    this.#idle?.stop();

    const endedAt = state.now();
    const errors: NebulyError[] = [];
    let stillOpen = 0;
    for (const interaction of this.#interactions) {
      if (interaction.ended) continue;
      interaction.output ??= '';
      interaction.timeEnd = endedAt;
      interaction.ended = true;
      stillOpen += 1;
    }
    // An empty conversation sends nothing, so there is nothing to say about its sending.
    if (reason === 'evicted' && this.#interactions.length > 0) {
      errors.push(
        new RecordingError(
          'conversation_evicted',
          `Conversation ${this.id} was ended early and sent: it was the longest idle of maxOpenConversations open ones ` +
            'when another started; later calls on it are not recorded',
          this.id,
        ),
      );
    }
    if (stillOpen > 0) {
      errors.push(
        new RecordingError(
          'interaction_open',
          `${stillOpen} interaction(s) of conversation ${this.id} had not ended ${OPEN_INTERACTIONS_ENDED[reason]}: sent with output '' and time_end set to the conversation's end`,
          this.id,
        ),
      );
    }

    const record = { conversationId: this.id, endUser: this.#endUser, tags: this.#tags, interactions: this.#interactions };
    settle(this.#onEnd({ record, errors }));
    return this.#outcome;
  }
}
