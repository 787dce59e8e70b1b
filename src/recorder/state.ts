import type { ModelPrice } from '../core/model-price.js';
import type { NebulyError } from '../core/errors.js';
import type { FeedbackTokenMinter } from '../core/feedback-options.js';
import type { RecordingGate } from './conversation-hooks.js';
import type { InteractionRecord, OpenRecord } from './record.js';

/**
 * What a conversation's turns tell it, and through it the recorder: a turn ended (its
 * record goes to be checked and stored), a step kept for later was filled or dropped, or
 * feedback came for a turn whose record was already taken.
 */
export interface TurnEvents {
  ended(record: OpenRecord): void;
  settled(record: InteractionRecord): void;
  feedback(record: InteractionRecord, action: Record<string, unknown>): void;
}

/**
 * The list of open conversations in order of last activity, kept by the recorder: a
 * state whose activity moves is moved to its end, in O(1).
 */
export interface ActivityOrder {
  moveToEnd(state: ConversationState): void;
}

/**
 * What a conversation and its turns share: one object, so that a turn checks "is my
 * conversation still open?" and records activity with plain field access. It is also the
 * node of the recorder's {@link ActivityOrder}: recording activity moves it there, which
 * is what finds the idlest conversation in O(1).
 *
 * @example
 * ```ts
 * const state = new ConversationState('chat-1', 'c:chat-1', { now: Date.now, report, order, events });
 * state.lastActivityAt = state.now(); // moves it to the end of the recorder's order
 * ```
 */
export class ConversationState {
  /** The conversation's id as the caller knows it: named in errors and outcomes. */
  readonly conversationId: string;
  /** Its id in the recorder and its store. */
  readonly key: string;

  /**
   * The conversation was refused at start (an invalid `end_user`, or after shutdown) and
   * that was reported then; later calls on it are ignored without a report each.
   */
  readonly refused: boolean;
  readonly now: () => number;
  readonly report: (error: NebulyError) => void;
  readonly events: TurnEvents;
  /** How `turn.feedbackToken()` asks the client for a token. */
  readonly feedbackToken: FeedbackTokenMinter | undefined;
  /** The client's `modelPrices` (integrations price the steps they record with them). */
  readonly modelPrices: Readonly<Record<string, ModelPrice>> | undefined;
  /** Neighbours in the recorder's {@link ActivityOrder}; `undefined` at the ends or out of it. */
  previous: ConversationState | undefined;
  next: ConversationState | undefined;
  #lastActivityAt: number;
  #order: ActivityOrder | undefined;
  #open: boolean;
  readonly #gate: RecordingGate;

  constructor(
    conversationId: string,
    key: string,
    init: {
      open: boolean;
      now: () => number;
      report: (error: NebulyError) => void;
      events: TurnEvents;
      /** The recorder's: once closed, so is this conversation. */
      gate?: RecordingGate | undefined;
      feedbackToken?: FeedbackTokenMinter | undefined;
      modelPrices?: Readonly<Record<string, ModelPrice>> | undefined;
    },
  ) {
    this.conversationId = conversationId;
    this.key = key;
    this.#open = init.open;
    this.#gate = init.gate ?? { closed: false };
    this.refused = !init.open;
    this.now = init.now;
    this.report = init.report;
    this.events = init.events;
    this.feedbackToken = init.feedbackToken;
    this.modelPrices = init.modelPrices;
    this.#lastActivityAt = init.now();
  }

  /** `false` once the conversation ended, or its recorder's gate closed; every later call is reported and ignored. */
  get open(): boolean {
    return this.#open && !this.#gate.closed;
  }

  set open(open: boolean) {
    this.#open = open;
  }

  /** When the last interaction, step or feedback was recorded, by {@link ConversationState.now}. */
  get lastActivityAt(): number {
    return this.#lastActivityAt;
  }

  set lastActivityAt(at: number) {
    this.#lastActivityAt = at;
    this.#order?.moveToEnd(this);
  }

  /** Puts it in (or, with `undefined`, takes it out of) the order activity keeps it in. */
  orderBy(order: ActivityOrder | undefined): void {
    this.#order = order;
  }
}
