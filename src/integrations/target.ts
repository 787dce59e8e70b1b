/**
 * Where what an integration observes goes, and how one observed call is recorded: the one
 * implementation behind every integration entry (`nebuly-client/openai`,
 * `nebuly-client/anthropic`, `nebuly-client/ai-sdk`, `nebuly-client/langchain`).
 *
 * Nothing here throws into the caller's code: what goes wrong is reported to the client's
 * `onError`. The main entry never imports this file.
 */
import { NebulyClient } from '../client.js';
import { NebulyError } from '../core/errors.js';
import { Conversation } from '../recorder/conversation.js';
import { Turn } from '../recorder/turn.js';
import { isObject } from './readable.js';
import type { NebulyTarget } from './nebuly-target.js';
import { sessionConversation } from './sessions.js';
import { type StepSlot, turnInternals, type TurnInternals } from './turn-access.js';
import type { EmbeddingStepInput, LLMStepInput, RetrievalStepInput } from '../schemas/index.js';

export type { NebulyTarget } from './nebuly-target.js';

export type { StepSlot } from './turn-access.js';

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
   * interaction's input (when given, it replaces the one given at start) and output (`''`
   * when none). For `{ turn }` it does nothing more (the caller ends the turn). Idempotent.
   */
  end(result: { input?: string | undefined; output?: string | undefined }): void;
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
}

/** The message of a fault, without anything but the error's own message. */
function faultError(error: unknown, context: string | undefined): NebulyError {
  const what = error instanceof Error ? error.message : String(error);
  return new NebulyError(
    `nebuly-client integration: ${context ?? 'instrumentation failed'}: ${what} (the observed call itself was not affected)`,
    { cause: error },
  );
}

/**
 * Checks a target once, when an integration is created, so that a mistake shows where it
 * is made rather than as calls that record nothing.
 *
 * @throws TypeError naming what is wrong.
 * @example
 * ```ts
 * const target = checkTarget(userTarget); // in an integration's factory
 * ```
 */
export function checkTarget(target: unknown): NebulyTarget {
  const expected = 'expected { turn }, { conversation } or { nebuly, endUser, conversationId?, tags? }';
  if (!isObject(target)) {
    throw new TypeError(`nebuly-client: the target is ${target === null ? 'null' : typeof target}; ${expected}.`);
  }
  if ('turn' in target) {
    if (!(target.turn instanceof Turn)) {
      throw new TypeError('nebuly-client: `target.turn` is not a Turn (get one from conversation.interaction()).');
    }
    return target as { turn: Turn };
  }
  if ('conversation' in target) {
    if (!(target.conversation instanceof Conversation)) {
      throw new TypeError(
        'nebuly-client: `target.conversation` is not a Conversation (get one from nebuly.startConversation()).',
      );
    }
    return target as { conversation: Conversation };
  }
  if ('nebuly' in target) {
    const { nebuly, endUser, conversationId, tags } = target;
    if (!(nebuly instanceof NebulyClient)) {
      throw new TypeError('nebuly-client: `target.nebuly` is not a NebulyClient.');
    }
    if (typeof endUser !== 'string' || endUser.trim() === '') {
      throw new TypeError('nebuly-client: `target.endUser` must be a non-empty string (the end user, hashed).');
    }
    if (conversationId !== undefined && (typeof conversationId !== 'string' || conversationId.trim() === '')) {
      throw new TypeError('nebuly-client: `target.conversationId`, when given, must be a non-empty string.');
    }
    if (tags !== undefined) {
      if (!isObject(tags) || Array.isArray(tags)) {
        throw new TypeError('nebuly-client: `target.tags`, when given, must be an object of strings.');
      }
      for (const [name, value] of Object.entries(tags)) {
        if (typeof value !== 'string') {
          throw new TypeError(`nebuly-client: \`target.tags.${name}\` must be a string.`);
        }
      }
    }
    return target as NebulyTarget;
  }
  throw new TypeError(`nebuly-client: the target has none of \`turn\`, \`conversation\`, \`nebuly\`; ${expected}.`);
}

/** Records a call's steps into a turn; `finish` is what ending the call does beyond that. */
class TurnCall implements ObservedCall {
  readonly #turn: Turn;
  readonly #internals: TurnInternals;
  readonly #finish: ((input: string | undefined, output: string) => void) | undefined;
  #ended = false;

  constructor(turn: Turn, finish: ((input: string | undefined, output: string) => void) | undefined) {
    this.#turn = turn;
    this.#internals = turnInternals(turn);
    this.#finish = finish;
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
      const slot = this.#internals.reserve();
      // Each of the slot's methods is guarded too: they run in the caller's stream.
      return {
        llm: (step) => this.#guard(() => slot.llm(step)),
        retrieval: (step) => this.#guard(() => slot.retrieval(step)),
        embedding: (step) => this.#guard(() => slot.embedding(step)),
        cancel: () => this.#guard(() => slot.cancel()),
      };
    } catch (error) {
      this.fault(error, 'reserving a step');
      return NO_SLOT;
    }
  }

  end(result: { input?: string | undefined; output?: string | undefined }): void {
    if (this.#ended) return;
    this.#ended = true;
    const finish = this.#finish;
    if (finish !== undefined) this.#guard(() => finish(result.input, result.output ?? ''));
  }

  get closed(): boolean {
    return this.#internals.closed();
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

const NO_SLOT: StepSlot = { llm() {}, retrieval() {}, embedding() {}, cancel() {} };

/** A call that records nothing: only when a target could not be used at all (a bug). */
const NO_CALL: ObservedCall = {
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
};

function endTurn(turn: Turn, internals: TurnInternals, input: string | undefined, output: string): void {
  if (input !== undefined) internals.setInput(input);
  turn.end({ output });
}

function ownTurn(conversation: Conversation, input: string, afterEnd?: () => void): ObservedCall {
  const turn = conversation.interaction({ input });
  const internals = turnInternals(turn);
  return new TurnCall(turn, (endInput, output) => {
    endTurn(turn, internals, endInput, output);
    afterEnd?.();
  });
}

/**
 * @internal Starts recording one observed call into `target`. `start.input` is the
 * interaction's input when the call is a turn of its own (the last user message's text);
 * `end()` may replace it. Never throws.
 * @example
 * ```ts
 * const call = beginCall(checkTarget(target), { input: lastUserText });
 * try {
 *   call.llm(mapStep(result));
 * } catch (error) {
 *   call.fault(error, 'mapping the result');
 * }
 * call.end({ output: answerText });
 * ```
 */
export function beginCall(target: NebulyTarget, start: { input?: string | undefined }): ObservedCall {
  try {
    const input = start.input ?? '';
    if ('turn' in target) return new TurnCall(target.turn, undefined);
    if ('conversation' in target) return ownTurn(target.conversation, input);
    if (target.conversationId !== undefined) return ownTurn(sessionConversation(target, target.conversationId), input);
    const conversation = target.nebuly.startConversation({ end_user: target.endUser, tags: target.tags });
    return ownTurn(conversation, input, () => void conversation.end());
  } catch {
    // Only a bug gets here (every recorder call reports instead of throwing), and there
    // is no turn to report it through: the caller's call goes on, unrecorded.
    return NO_CALL;
  }
}
