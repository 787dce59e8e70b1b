/**
 * What the integrations need of a turn beyond its public methods, built on the turn's
 * parts (`turnParts`) so that the main entry carries none of it.
 */
import type { NebulyError } from '../core/errors.js';
import type { ModelPrice } from '../core/model-price.js';
import { RecordingError } from '../recorder/recording-error.js';
import { UNFINISHED_STEP } from '../recorder/record.js';
import { embeddingRecord, llmRecord, retrievalRecord, type Turn, turnParts, type TurnParts } from '../recorder/turn.js';
import type { EmbeddingStepInput, LLMStepInput, RetrievalStepInput } from '../schemas/index.js';

/**
 * @internal A place in a turn's trace kept for a step only known later (a streamed model
 * call), so that steps recorded meanwhile land after it. Filled once, or cancelled; a place
 * still empty when the conversation is sent (the framework never reported the call's end)
 * is left out then, and reported once (`step_unfinished`).
 * @example
 * ```ts
 * const place = turnInternals(turn).reserve();
 * turn.retrieval(step); // lands after the reserved place
 * place.llm(streamedStep);
 * ```
 */
export interface StepSlot {
  llm(step: LLMStepInput): void;
  retrieval(step: RetrievalStepInput): void;
  embedding(step: EmbeddingStepInput): void;
  /** Gives the place up: nothing is recorded there. */
  cancel(): void;
}

/**
 * @internal What the integrations (target.ts) need of a turn beyond its public methods.
 * @example
 * ```ts
 * turnInternals(turn).report(new NebulyError('integration fault'));
 * ```
 */
export interface TurnInternals {
  /** The client's `onError`, made safe: never throws. */
  report(error: NebulyError): void;
  /** Keeps the next place in the trace for a step recorded later. */
  reserve(): StepSlot;
  /** Replaces the turn's input, while it is open: an integration may learn it only at the end. */
  setInput(input: string): void;
  /** Whether the turn's conversation ended: nothing more can be recorded in the turn. */
  closed(): boolean;
  /** The steps recorded so far, as recorded (read only: a tool run the app recorded itself is not recorded again). */
  steps(): readonly Readonly<Record<string, unknown>>[];
  /** The client's `modelPrices`. */
  modelPrices(): Readonly<Record<string, ModelPrice>> | undefined;
}

/**
 * A place kept in a turn's trace: one object, its methods on the prototype (one is made
 * for every observed call).
 */
class ReservedPlace implements StepSlot {
  readonly #state: TurnParts['state'];
  readonly #record: TurnParts['record'];
  readonly #placeholder: Record<PropertyKey, unknown> = { [UNFINISHED_STEP]: true };
  #settled: boolean;

  constructor({ state, record }: TurnParts) {
    this.#state = state;
    this.#record = record;
    // As the turn's own methods: a place on a closed turn is refused, and said so once.
    const open = state.open && !record.ended;
    if (!open && !state.refused) {
      const id = state.conversationId;
      state.report(
        state.open
          ? new RecordingError('interaction_ended', `a step on an interaction of conversation ${id} that had already ended: not recorded`, id)
          : new RecordingError('conversation_ended', `a step on conversation ${id} after it ended: not recorded`, id),
      );
    }
    if (open) record.trace.push(this.#placeholder);
    this.#settled = !open;
  }

  llm(step: LLMStepInput): void {
    this.#fill(llmRecord(step), 'llm');
  }

  retrieval(step: RetrievalStepInput): void {
    this.#fill(retrievalRecord(step), 'retrieval');
  }

  embedding(step: EmbeddingStepInput): void {
    this.#fill(embeddingRecord(step), 'embedding');
  }

  cancel(): void {
    if (this.#settled) return;
    this.#settled = true;
    const state = this.#state;
    if (!state.open) return;
    const trace = this.#record.trace;
    const index = trace.indexOf(this.#placeholder);
    if (index >= 0) trace.splice(index, 1);
    state.events.settled(this.#record);
  }

  #fill(recorded: Record<string, unknown>, kind: string): void {
    if (this.#settled) return;
    this.#settled = true;
    const state = this.#state;
    // The turn may have ended meanwhile (its step was reserved while it was open); only
    // a conversation already sent can no longer take it.
    if (!state.open) {
      if (!state.refused) {
        state.report(
          new RecordingError('conversation_ended', `a ${kind} step finished after conversation ${state.conversationId} ended: not recorded`, state.conversationId),
        );
      }
      return;
    }
    // The step takes its place in the trace: taking the mark off the place instead (a
    // `delete`) was the slowest line of an observed call.
    const trace = this.#record.trace;
    const index = trace.lastIndexOf(this.#placeholder);
    if (index >= 0) trace[index] = recorded;
    state.lastActivityAt = state.now();
    // An ended turn waits for its steps before it is stored.
    state.events.settled(this.#record);
  }
}

/** {@link TurnInternals} as one object, its methods on the prototype: one is made for every observed call. */
class TurnAccess implements TurnInternals {
  readonly #parts: TurnParts;

  constructor(turn: Turn) {
    this.#parts = turnParts(turn);
  }

  report(error: NebulyError): void {
    this.#parts.state.report(error);
  }

  reserve(): StepSlot {
    return new ReservedPlace(this.#parts);
  }

  setInput(input: string): void {
    const { state, record } = this.#parts;
    if (!record.ended && state.open) record.input = input;
  }

  closed(): boolean {
    return !this.#parts.state.open;
  }

  steps(): readonly Readonly<Record<string, unknown>>[] {
    return this.#parts.record.trace;
  }

  modelPrices(): Readonly<Record<string, ModelPrice>> | undefined {
    return this.#parts.state.modelPrices;
  }
}

/**
 * @internal The integrations' access to a turn.
 * @example
 * ```ts
 * const internals = turnInternals(turn);
 * internals.setInput('Where is my order?');
 * ```
 */
export function turnInternals(turn: Turn): TurnInternals {
  return new TurnAccess(turn);
}
