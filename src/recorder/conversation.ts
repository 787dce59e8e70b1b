import type { NebulyError } from '../core/errors.js';
import { RecordingError } from './errors.js';
import { copyPlainObject, fieldsOf } from './fields.js';
import { IdleTimer } from './idle-timer.js';
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

/** What a conversation needs from the recorder that started it. */
export interface ConversationHost {
  readonly now: () => number;
  readonly idleTimeoutMs: number;
  report(error: NebulyError): void;
  /**
   * Takes over an ended conversation: validates, serializes and sends it. `notes` are
   * the errors found while ending it, to report once it is registered for sending (so
   * that an `onError` handler that calls `flush()` or `shutdown()` waits for it).
   */
  submit(record: ConversationRecord, notes: readonly NebulyError[]): Promise<ConversationOutcome>;
  /** The conversation started; the recorder may end it early through `handle.finish`. */
  opened(conversation: Conversation, handle: OpenConversation): void;
  /** The conversation ended, whatever the reason. */
  closed(conversation: Conversation): void;
}

/** What the recorder may do with an open conversation. */
export interface OpenConversation {
  /** Ends it (at shutdown, or to make room). */
  finish(reason: EndReason): Promise<ConversationOutcome>;
  /** When it last saw an interaction, step or feedback. */
  lastActivityAt(): number;
}

/** How a conversation starts: usable, or refused with the error that was reported. */
export type ConversationInit =
  | { conversationId: string; endUser: string; tags: Record<string, string> | undefined }
  | { conversationId: string; refusal: NebulyError };

const WHY: Record<EndReason, string> = {
  end: 'when conversation.end() was called',
  idle: 'when the conversation was ended for being idle',
  shutdown: 'when shutdown() ended the conversation',
  exit: 'when the conversation was ended as the process was about to exit',
  evicted: 'when the conversation was ended early to stay within maxOpenConversations',
};

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

  readonly #host: ConversationHost;
  readonly #state: ConversationState;
  readonly #endUser: string;
  readonly #tags: Record<string, string> | undefined;
  readonly #interactions: InteractionRecord[] = [];
  readonly #idle: IdleTimer | undefined;
  #outcome: Promise<ConversationOutcome> | undefined;

  /** @internal Conversations come from `nebuly.startConversation()`. */
  constructor(host: ConversationHost, init: ConversationInit) {
    this.id = init.conversationId;
    this.#host = host;
    const refused = 'refusal' in init;
    this.#state = {
      conversationId: init.conversationId,
      open: !refused,
      refused,
      lastActivityAt: host.now(),
      now: host.now,
      report: (error) => host.report(error),
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
      timeoutMs: host.idleTimeoutMs,
      now: host.now,
      lastActivityAt: () => this.#state.lastActivityAt,
      onIdle: () => void this.#finish('idle'),
    });
    host.opened(this, {
      finish: (reason) => this.#finish(reason),
      lastActivityAt: () => this.#state.lastActivityAt,
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
    this.#host.closed(this);

    const endedAt = state.now();
    const notes: NebulyError[] = [];
    let stillOpen = 0;
    for (const interaction of this.#interactions) {
      if (interaction.ended) continue;
      interaction.output ??= '';
      interaction.timeEnd = endedAt;
      interaction.ended = true;
      stillOpen += 1;
    }
    if (reason === 'evicted') {
      notes.push(
        new RecordingError(
          'conversation_evicted',
          `Conversation ${this.id} was ended early and sent: it was the longest idle of maxOpenConversations open ones ` +
            'when another started; later calls on it are not recorded',
          this.id,
        ),
      );
    }
    if (stillOpen > 0) {
      notes.push(
        new RecordingError(
          'interaction_open',
          `${stillOpen} interaction(s) of conversation ${this.id} had not ended ${WHY[reason]}: sent with output '' and time_end set to the conversation's end`,
          this.id,
        ),
      );
    }

    // Not reported here: `submit` reports the notes once the conversation is registered
    // for sending, so that `flush()` or `shutdown()` called from `onError` waits for it.
    // (An open interaction means there is one: an empty conversation has no notes.)
    settle(
      this.#interactions.length === 0
        ? { status: 'empty', conversationId: this.id }
        : this.#host.submit(
            {
              conversationId: this.id,
              endUser: this.#endUser,
              tags: this.#tags,
              interactions: this.#interactions,
            },
            notes,
          ),
    );
    return this.#outcome;
  }
}
