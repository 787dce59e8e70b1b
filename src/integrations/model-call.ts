/**
 * The life of one observed model call, the same in every integration: its step's place
 * is kept from its start, filled once when it ends (or given up), and then the call ends
 * its interaction with the text shown to the user, unless the answer awaits tools.
 */
import type { EmbeddingStepInput, LLMStepInput } from '../schemas/index.js';
import { diagnose } from './diagnostics.js';
import { type BilledTokens, callCost } from './model-prices.js';
import type { ObservedCall } from './observed-call.js';
import type { StepSlot } from './turn-access.js';

/**
 * What one observed call recorded when it finished.
 * @example
 * ```ts
 * const finished: Finished = { llm: { model, messages, output: 'Hi!' }, output: 'Hi!' };
 * ```
 */
export interface Finished {
  /** The step, if the call produced one. */
  llm?: LLMStepInput | undefined;
  embedding?: EmbeddingStepInput | undefined;
  /** The interaction's output: the text shown to the user. */
  output: string;
  /** The answer asked for tools (their call ids): the interaction goes on. */
  awaitsTools?: readonly string[] | undefined;
  /** The call's tokens as billed, when the provider said them apart: the step's `cost` comes from them. */
  billed?: BilledTokens | undefined;
}

/**
 * @internal One model call, from its start (its place kept) to its end (recorded once).
 * @example
 * ```ts
 * const modelCall = new ModelCall(beginCall(target, { input }));
 * // … the answer arrives …
 * modelCall.finish(() => llmFinished(messages, answer, { kind: 'complete' }));
 * ```
 */
export class ModelCall {
  readonly call: ObservedCall;
  readonly #slot: StepSlot;
  readonly #endsCall: boolean;
  readonly #joinsOutput: boolean;
  #done = false;
  #streamed = false;

  /**
   * `endsCall: false` when the model call is one run of a larger one (a LangChain agent)
   * that ends the call itself; `joinsOutput` when the user is shown the text of every
   * call of the interaction (see `CallResult.joinsOutput`).
   */
  constructor(call: ObservedCall, options: { endsCall?: boolean; joinsOutput?: boolean } = {}) {
    this.call = call;
    this.#slot = call.reserve();
    this.#endsCall = options.endsCall ?? true;
    this.#joinsOutput = options.joinsOutput ?? false;
  }

  /** The answer is streamed: a missing token count is a stream without usage. */
  streaming(): void {
    this.#streamed = true;
  }

  /** Whether the call was recorded (or given up). */
  get done(): boolean {
    return this.#done;
  }

  /**
   * Records what `produce` returns, once; a fault in it is reported and the place given
   * up. Returns what was recorded (`undefined` when nothing was, this time).
   */
  finish(produce: () => Finished): Finished | undefined {
    if (this.#done) return undefined;
    this.#done = true;
    let finished: Finished;
    try {
      finished = produce();
    } catch (error) {
      this.call.fault(error, 'mapping a call to a step');
      this.#giveUp();
      return undefined;
    }
    if (finished.llm !== undefined) {
      this.#price(finished.llm, finished.billed);
      this.#slot.llm(finished.llm);
      // A failed or stopped call is marked as such: its missing counts say nothing more.
      if (finished.llm.input_tokens === undefined && finished.llm.output_tokens === undefined && !finished.llm.output.includes('[nebuly: ')) {
        diagnose(this.call.client, this.#streamed ? 'stream_without_usage' : 'call_without_tokens');
      }
    } else if (finished.embedding !== undefined) this.#slot.embedding(finished.embedding);
    else this.#slot.cancel();
    if (this.#endsCall) this.call.end({ output: finished.output, awaitsTools: finished.awaitsTools, joinsOutput: this.#joinsOutput });
    return finished;
  }

  /** Sets the step's `cost` when its tokens were billed at more than two rates and its model has a price. */
  #price(llm: LLMStepInput, billed: BilledTokens | undefined): void {
    if (billed === undefined || llm.cost !== undefined) return;
    try {
      const cost = callCost(llm.model, billed, this.call.modelPrices);
      if (cost !== undefined) llm.cost = cost;
    } catch (error) {
      // A price the option let through that makes no amount (too large): the step goes without.
      this.call.fault(error, 'pricing a call');
    }
  }

  /** The call was given up without anything to record (the caller read the raw response). */
  drop(): void {
    if (this.#done) return;
    this.#done = true;
    this.#giveUp();
  }

  #giveUp(): void {
    this.#slot.cancel();
    if (this.#endsCall) this.call.end({ joinsOutput: this.#joinsOutput });
  }
}
