import { RecordingError } from './recording-error.js';
import { interactionFields } from './call-fields.js';
import type { ConversationContext, ConversationControl, ConversationHooks, ConversationInit, EndReason } from './conversation-hooks.js';
import type { ConversationOutcome } from './outcome.js';
import { LinkedList } from './linked-list.js';
import { attachToRecord, type InteractionRecord, newRecord, type OpenRecord } from './record.js';
import { ConversationState, type TurnEvents } from './state.js';
import { Turn } from './turn.js';

export type { StartConversationParams } from './start.js';
export type { ConversationContext, ConversationControl, ConversationHooks, ConversationInit, EndReason } from './conversation-hooks.js';

/** Parameters of `conversation.interaction`. */
export interface InteractionParams {
  /** What the user asked. */
  input: string;
  /** Tags of this interaction; they win over the conversation's tags of the same name. */
  tags?: Record<string, string> | undefined;
  /**
   * The A/B feature flags this interaction ran under (those asked of `nebuly.variants()`):
   * sent with it as `feature_flag`, which ties it to the experiment.
   */
  feature_flag?: string[] | undefined;
}

/** The end of the message about interactions still open when their conversation ended. */
const OPEN_INTERACTIONS_ENDED: Record<EndReason, string> = {
  end: 'when conversation.end() was called',
  idle: 'when the conversation was ended for being idle',
  shutdown: 'when shutdown() ended the conversation',
  exit: 'when the conversation was ended as the process was about to exit',
  evicted: 'when the conversation was ended early to stay within maxOpenConversations',
};

let controlOf: (conversation: Conversation) => ConversationControl;

let started = 0;
/** The next number of the interactions started in this process: orders those of the same millisecond. */
function nextOrder(): number {
  started += 1;
  return started;
}

/**
 * A conversation's open turns, in the order they started, and what its turns tell it,
 * passed on to its recorder's hooks: one small object whose methods are shared, where a
 * list and closures made for each conversation cost it six objects and ~300 bytes, which
 * every open conversation holds (100,000 may be).
 */
class OpenTurns extends LinkedList<OpenRecord> implements TurnEvents {
  readonly #conversation: Conversation;
  readonly #hooks: ConversationHooks<Conversation>;

  constructor(conversation: Conversation, hooks: ConversationHooks<Conversation>) {
    super();
    this.#conversation = conversation;
    this.#hooks = hooks;
  }

  ended(record: OpenRecord): void {
    this.unlink(record);
    this.#hooks.turnEnded(this.#conversation, record);
  }

  settled(record: InteractionRecord): void {
    this.#hooks.stepSettled(this.#conversation, record);
  }

  feedback(record: InteractionRecord, action: Record<string, unknown>): void {
    this.#hooks.lateFeedback(this.#conversation, record, action);
  }
}

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
 * A conversation being recorded. Each interaction, once ended, is checked and kept in
 * the recorder's store (this process's memory by default, or a store shared by every
 * instance); the whole conversation goes in one request to the bulk endpoint when it
 * ends: by {@link Conversation.end}, by the idle time-out, or by `nebuly.shutdown()`. Get
 * one from `nebuly.conversation()` (resumed by id, in any instance) or
 * `nebuly.startConversation()` (always a new one).
 *
 * No method throws: misuse and invalid data go to the client's `onError`.
 *
 * @example
 * ```ts
 * const conversation = nebuly.conversation({ conversation_id: chatId, end_user: await hashEndUser(userId) });
 * const turn = conversation.interaction({ input: 'Hi' });
 * turn.llm({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!' });
 * turn.end({ output: 'Hello!' });
 * const outcome = await conversation.end(); // { status: 'delivered', conversationId }
 * ```
 */
export class Conversation {
  /** The `conversation_id` given, or a generated UUID. */
  readonly id: string;
  /** @internal Its id in the recorder and its store. */
  readonly key: string;
  /** @internal What it shares with its turns. */
  readonly state: ConversationState;
  /** @internal Who the conversation is with; `''` when refused. */
  readonly endUser: string;
  /** @internal The conversation's tags, merged under each turn's own. */
  readonly tags: Record<string, string> | undefined;

  readonly #hooks: ConversationHooks<Conversation>;
  /** Turns started and not ended, in the order started; they tell the conversation what they do through it. */
  readonly #openTurns: OpenTurns;
  #outcome: Promise<ConversationOutcome> | undefined;

  /**
   * @internal Conversations come from `nebuly.conversation()` and
   * `nebuly.startConversation()`. A refused one records nothing.
   */
  constructor(context: ConversationContext, init: ConversationInit, hooks: ConversationHooks<Conversation>) {
    this.id = init.conversationId;
    this.key = init.key;
    this.#hooks = hooks;
    const refused = 'refusal' in init || 'sampledOut' in init;
    this.#openTurns = new OpenTurns(this, hooks);
    this.state = new ConversationState(init.conversationId, init.key, {
      open: !refused,
      now: context.now,
      report: context.report,
      gate: context.gate,
      feedbackToken: context.feedbackToken,
      modelPrices: context.modelPrices,
      events: this.#openTurns,
    });
    if ('refusal' in init || 'sampledOut' in init) {
      this.endUser = '';
      this.tags = undefined;
      this.#outcome = Promise.resolve(
        'refusal' in init
          ? { status: 'dropped', conversationId: this.id, error: init.refusal }
          : { status: 'empty', conversationId: this.id },
      );
      return;
    }
    this.endUser = init.endUser;
    this.tags = init.tags;
  }

  static {
    controlOf = (conversation) => ({
      finish: (reason) => conversation.#finish(reason),
      closeTurns: (reason) => {
        const error = conversation.#closeTurns(reason);
        if (error !== undefined) conversation.state.report(error);
      },
      openTurns: () => {
        let count = 0;
        for (let record = conversation.#openTurns.head; record !== undefined; record = record.next) count += 1;
        return count;
      },
      attachToOpenTurn: (interactionId, attachment) => {
        for (let record = conversation.#openTurns.head; record !== undefined; record = record.next) {
          if (record.id !== interactionId) continue;
          attachToRecord(record, attachment);
          return true;
        }
        return false;
      },
    });
  }

  /** Whether the conversation has ended (or was refused at start); recording then stops. */
  get ended(): boolean {
    return !this.state.open;
  }

  /**
   * Starts an interaction: the user's `input`, now (`time_start`). Record its steps on the
   * returned {@link Turn} and end it with `turn.end({ output })`. Interactions are sent
   * in the order they started.
   */
  interaction(params: InteractionParams): Turn {
    const state = this.state;
    const now = state.now();
    // The tags and flags are copied, for the same reason arrays are: the caller's object may change.
    const { input, tags, feature_flag } = interactionFields(params);
    const record = newRecord(nextOrder(), input, tags, feature_flag, now);
    if (state.open) {
      this.#openTurns.append(record);
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
   * Ends the conversation and sends it, with every interaction recorded (by this process
   * or, with a shared store, by any other), in one request. Resolves when it was
   * delivered or given up; never rejects: the outcome says what happened (failures also
   * go to `onError`). Calling it again returns the same promise.
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
    const open = this.#closeTurns(reason);
    this.state.open = false;
    settle(this.#hooks.ended(this, reason, []));
    // Reported once the recorder is sending it, so that a flush() from onError waits for it.
    if (open !== undefined) this.state.report(open);
    return this.#outcome;
  }

  /** Ends the open turns with output `''` and `time_end` now; the error that says so, if any were open. */
  #closeTurns(reason: EndReason): RecordingError | undefined {
    if (this.#openTurns.head === undefined) return undefined;
    // Listed first: ending a turn takes it out of the list.
    const open: OpenRecord[] = [];
    for (let record: OpenRecord | undefined = this.#openTurns.head; record !== undefined; record = record.next) open.push(record);
    const endedAt = this.state.now();
    for (const record of open) {
      record.output ??= '';
      record.timeEnd = endedAt;
      record.ended = true;
      this.state.events.ended(record);
    }
    return new RecordingError(
      'interaction_open',
      `${open.length} interaction(s) of conversation ${this.id} had not ended ${OPEN_INTERACTIONS_ENDED[reason]}: sent with output '' and time_end set to the conversation's end`,
      this.id,
    );
  }
}
