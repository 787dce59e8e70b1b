/**
 * One observed model call or framework run, from its start to its end: what every
 * integration records through. Nothing here throws into the caller's code: what goes
 * wrong is reported to the client's `onError`.
 */
import type { NebulyClient } from '../client.js';
import type { ModelPrice } from '../core/model-price.js';
import { NebulyError } from '../core/nebuly-error.js';
import type { Turn } from '../recorder/turn.js';
import type { EmbeddingStepInput, LLMStepInput, RetrievalStepInput } from '../schemas/index.js';
import { type StepSlot, turnInternals, type TurnInternals } from './turn-access.js';

/**
 * How an observed call ended.
 * @example
 * ```ts
 * call.end({ output: 'Let me look.', awaitsTools: ['call_1'] }); // the answer asked for a tool
 * ```
 */
export interface CallResult {
  /** The interaction's input, when learnt only at the end: replaces the one given at start. */
  input?: string | undefined;
  /** The text shown to the user (`''` when none). */
  output?: string | undefined;
  /**
   * The answer asked for tools (their call ids, as many as are known): the interaction
   * is not over, the next call with their results continues it.
   */
  awaitsTools?: readonly string[] | undefined;
  /**
   * The user is shown the text of every call of the interaction, one after the other (the
   * AI SDK's `textStream` across the steps of a `streamText`): `output` is added to the
   * interaction's output so far instead of replacing it.
   */
  joinsOutput?: boolean | undefined;
}

/**
 * @internal One observed model call or framework run, from its start to its end.
 * @example
 * ```ts
 * const call = beginCall(target, { input: 'Where is my order?' });
 * call.llm({ model: 'gpt-4o', messages, output: answer });
 * call.end({ output: answer });
 * ```
 */
export interface ObservedCall {
  /**
   * Records a step. Steps keep the order of the calls that produced them: reserve a slot
   * first ({@link ObservedCall.reserve}) when the step is only known later (a stream), so
   * that manual `turn.retrieval()` calls made meanwhile land after it, in call order.
   */
  llm(step: LLMStepInput): void;
  retrieval(step: RetrievalStepInput): void;
  embedding(step: EmbeddingStepInput): void;
  reserve(): StepSlot;
  /**
   * The call ended: for `{ conversation }` and standalone targets, ends the turn with the
   * interaction's input and output, unless the answer awaits tools (then the next call
   * with their results continues it). For `{ turn }` it does nothing more (the caller
   * ends the turn). Idempotent.
   */
  end(result: CallResult): void;
  /** An instrumentation fault: goes to the client's `onError` (as a NebulyError), never thrown. */
  fault(error: unknown, context?: string): void;
  /**
   * Runs an integration's recording code: what it throws is a {@link ObservedCall.fault}
   * (`context` says what was being recorded), never the caller's problem.
   */
  guard(context: string, record: () => void): void;
  /**
   * Whether the call's conversation ended, so that nothing more can be recorded: what an
   * integration keeps for a call its framework never ended can then be let go.
   */
  readonly closed: boolean;
  /** The client recording, when the target names it (standalone, ambient): for diagnostics. */
  readonly client: NebulyClient | undefined;
  /** The recording client's `modelPrices`, to price the call's step. */
  readonly modelPrices: Readonly<Record<string, ModelPrice>> | undefined;
}

/** The message of a fault, without anything but the error's own message. */
function faultError(error: unknown, context: string | undefined): NebulyError {
  const what = error instanceof Error ? error.message : String(error);
  return new NebulyError(
    `nebuly-client integration: ${context ?? 'instrumentation failed'}: ${what} (the observed call itself was not affected)`,
    { cause: error },
  );
}

/** What ending a call does beyond recording its steps. */
export type Finish = (result: CallResult) => void;

/**
 * @internal Records a call's steps into a turn; `finish` is what ending the call does beyond that.
 * @example
 * ```ts
 * const call = new TurnCall(turn, undefined, nebuly); // a { turn } target: the caller ends the turn
 * ```
 */
export class TurnCall implements ObservedCall {
  readonly #turn: Turn;
  readonly #internals: TurnInternals;
  readonly #finish: Finish | undefined;
  readonly client: NebulyClient | undefined;
  #ended = false;

  /** `internals`: the turn's, when the caller has them already. */
  constructor(turn: Turn, finish: Finish | undefined, client?: NebulyClient, internals: TurnInternals = turnInternals(turn)) {
    this.#turn = turn;
    this.#internals = internals;
    this.#finish = finish;
    this.client = client;
  }

  llm(step: LLMStepInput): void {
    this.#guard(() => this.#turn.llm(step));
  }

  retrieval(step: RetrievalStepInput): void {
    this.#guard(() => this.#turn.retrieval(step));
  }

  embedding(step: EmbeddingStepInput): void {
    this.#guard(() => this.#turn.embedding(step));
  }

  reserve(): StepSlot {
    try {
      // Each of the slot's methods is guarded too: they run in the caller's stream.
      return new GuardedSlot(this.#internals.reserve(), this);
    } catch (error) {
      this.fault(error, 'reserving a step');
      return NO_SLOT;
    }
  }

  end(result: CallResult): void {
    if (this.#ended) return;
    this.#ended = true;
    const finish = this.#finish;
    if (finish !== undefined) this.#guard(() => finish(result));
  }

  get closed(): boolean {
    return this.#internals.closed();
  }

  get modelPrices(): Readonly<Record<string, ModelPrice>> | undefined {
    return this.#internals.modelPrices();
  }

  fault(error: unknown, context?: string): void {
    try {
      this.#internals.report(faultError(error, context));
    } catch {
      // `report` is safe; this only guards against a bug in building the error.
    }
  }

  guard(context: string, record: () => void): void {
    try {
      record();
    } catch (error) {
      this.fault(error, context);
    }
  }

  #guard(record: () => unknown): void {
    try {
      record();
    } catch (error) {
      this.fault(error);
    }
  }
}

/** A slot whose faults are the call's, never thrown: one object, made for every observed call. */
class GuardedSlot implements StepSlot {
  readonly #slot: StepSlot;
  readonly #call: ObservedCall;

  constructor(slot: StepSlot, call: ObservedCall) {
    this.#slot = slot;
    this.#call = call;
  }

  llm(step: LLMStepInput): void {
    try {
      this.#slot.llm(step);
    } catch (error) {
      this.#call.fault(error);
    }
  }

  retrieval(step: RetrievalStepInput): void {
    try {
      this.#slot.retrieval(step);
    } catch (error) {
      this.#call.fault(error);
    }
  }

  embedding(step: EmbeddingStepInput): void {
    try {
      this.#slot.embedding(step);
    } catch (error) {
      this.#call.fault(error);
    }
  }

  cancel(): void {
    try {
      this.#slot.cancel();
    } catch (error) {
      this.#call.fault(error);
    }
  }
}

const NO_SLOT: StepSlot = { llm() {}, retrieval() {}, embedding() {}, cancel() {} };

/**
 * @internal A call that records nothing: when there is no target (no ambient one), or a
 * target could not be used at all (a bug).
 * @example
 * ```ts
 * return NO_CALL;
 * ```
 */
export const NO_CALL: ObservedCall = {
  llm() {},
  retrieval() {},
  embedding() {},
  reserve: () => NO_SLOT,
  end() {},
  fault() {},
  guard(_context, record) {
    try {
      record();
    } catch {
      // Nowhere to report it: a call that records nothing.
    }
  },
  closed: true,
  client: undefined,
  modelPrices: undefined,
};
