/**
 * What the integrations need of a turn beyond its public methods, built on the turn's
 * parts (`turnParts`) so that the main entry carries none of it.
 */
import type { NebulyError } from '../core/errors.js';
import type { ModelPrice } from '../core/model-price.js';
import { RecordingError } from '../recorder/recording-error.js';
import { UNFINISHED_STEP } from '../recorder/record.js';
import { embeddingRecord, llmRecord, retrievalRecord, type Turn, turnParts } from '../recorder/turn.js';
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
 * @internal The integrations' access to a turn.
 * @example
 * ```ts
 * const { reserve, report, setInput } = turnInternals(turn);
 * ```
 */
export function turnInternals(turn: Turn): TurnInternals {
  const { state, record } = turnParts(turn);
  const report = state.report;

  const reserve = (): StepSlot => {
    // As the turn's own methods: a place on a closed turn is refused, and said so once.
    const open = state.open && !record.ended;
    if (!open && !state.refused) {
      const id = state.conversationId;
      report(
        state.open
          ? new RecordingError('interaction_ended', `a step on an interaction of conversation ${id} that had already ended: not recorded`, id)
          : new RecordingError('conversation_ended', `a step on conversation ${id} after it ended: not recorded`, id),
      );
    }
    const placeholder: Record<PropertyKey, unknown> = { [UNFINISHED_STEP]: true };
    if (open) record.trace.push(placeholder);
    let settled = !open;
    const fill = (recorded: Record<string, unknown>, kind: string) => {
      if (settled) return;
      settled = true;
      // The turn may have ended meanwhile (its step was reserved while it was open); only
      // a conversation already sent can no longer take it.
      if (!state.open) {
        if (!state.refused) {
          report(
            new RecordingError(
              'conversation_ended',
              `a ${kind} step finished after conversation ${state.conversationId} ended: not recorded`,
              state.conversationId,
            ),
          );
        }
        return;
      }
      delete placeholder[UNFINISHED_STEP];
      Object.assign(placeholder, recorded);
      state.lastActivityAt = state.now();
      // An ended turn waits for its steps before it is stored.
      state.events.settled(record);
    };
    return {
      llm: (step) => fill(llmRecord(step), 'llm'),
      retrieval: (step) => fill(retrievalRecord(step), 'retrieval'),
      embedding: (step) => fill(embeddingRecord(step), 'embedding'),
      cancel: () => {
        if (settled) return;
        settled = true;
        if (!state.open) return;
        const index = record.trace.indexOf(placeholder);
        if (index >= 0) record.trace.splice(index, 1);
        state.events.settled(record);
      },
    };
  };

  return {
    report,
    reserve,
    setInput: (input) => {
      if (!record.ended && state.open) record.input = input;
    },
    closed: () => !state.open,
    steps: () => record.trace,
    modelPrices: () => state.modelPrices,
  };
}
