import type { FeedbackTokenOptions } from '../core/feedback-options.js';
import { NebulyError } from '../core/nebuly-error.js';
import type {
  ConversationFeedbackAction,
  EmbeddingStepInput,
  LLMStepInput,
  RetrievalStepInput,
} from '../schemas/index.js';
import { EMBEDDING_STEP_FIELDS, FEEDBACK_ACTION_FIELDS, RETRIEVAL_STEP_FIELDS } from '../schemas/wire-fields.js';
import { endOutput, llmFields } from './call-fields.js';
import { RecordingError } from './recording-error.js';
import { copyArray, fieldReaderOf } from './fields.js';
import type { InteractionRecord, OpenRecord } from './record.js';
import { sharedKey } from './keys.js';
import type { ConversationState } from './state.js';

/** Parameters of `turn.end`. */
export interface EndInteractionParams {
  /** The answer shown to the user. */
  output: string;
}

// What each call records: the fields of its wire schema (see fieldReaderOf; the LLM
// step's, on every interaction's path, written out in call-fields.ts).
const recordRetrieval = /* @__PURE__ */ fieldReaderOf(RETRIEVAL_STEP_FIELDS, { outputs: copyArray });
const recordEmbedding = /* @__PURE__ */ fieldReaderOf(EMBEDDING_STEP_FIELDS);
const recordFeedback = /* @__PURE__ */ fieldReaderOf(FEEDBACK_ACTION_FIELDS);

/**
 * @internal A step as recorded: only the fields of its kind, values kept as given. Shared
 * by the turn's methods and the integrations' reserved places.
 * @example
 * ```ts
 * trace.push(llmRecord({ model, messages, output }));
 * ```
 */
export function llmRecord(step: LLMStepInput): Record<string, unknown> {
  return llmFields(step);
}

/**
 * @internal See {@link llmRecord}.
 * @example
 * ```ts
 * trace.push(retrievalRecord({ source, input, outputs }));
 * ```
 */
export function retrievalRecord(step: RetrievalStepInput): Record<string, unknown> {
  return recordRetrieval(step);
}

/**
 * @internal See {@link llmRecord}.
 * @example
 * ```ts
 * trace.push(embeddingRecord({ model, input }));
 * ```
 */
export function embeddingRecord(step: EmbeddingStepInput): Record<string, unknown> {
  return recordEmbedding(step);
}

/**
 * @internal What a turn records into, for the integrations (src/integrations/turn-access.ts),
 * which keep places in the trace for streamed steps: the conversation's shared state and
 * the interaction's record.
 * @example
 * ```ts
 * const { record } = turnParts(turn);
 * ```
 */
export interface TurnParts {
  state: ConversationState;
  record: InteractionRecord;
}

let partsOf: (turn: Turn) => TurnParts;

/**
 * @internal Not part of the public API: used by the integrations only.
 * @example
 * ```ts
 * const { state, record } = turnParts(turn);
 * ```
 */
export function turnParts(turn: Turn): TurnParts {
  return partsOf(turn);
}

/**
 * One interaction of a recorded conversation: the user's input, the steps that produced
 * the answer, the answer, and the user's feedback. Get one from
 * `conversation.interaction()`.
 *
 * Recording is synchronous and cheap: values are kept as given (arrays copied, and each
 * message as its `role` and `content`) and checked against the wire schemas when the
 * conversation ends, where an invalid step or feedback action is left out alone and
 * reported to `onError` by its path. No method
 * throws; a call that cannot be honoured is reported to `onError`. Each returns the turn,
 * so calls chain.
 *
 * @example
 * ```ts
 * const turn = conversation.interaction({ input: question });
 * turn.retrieval({ source: 'handbook', input: question, outputs: passages });
 * turn.llm({ model: 'gpt-4o', messages, output: answer, input_tokens: 812, output_tokens: 64 });
 * turn.end({ output: answer });
 * // later, when the user reacts:
 * turn.feedback({ slug: 'thumbs_up' });
 * ```
 */
export class Turn {
  readonly #state: ConversationState;
  readonly #record: OpenRecord;

  /** @internal Turns come from `conversation.interaction()`. */
  constructor(state: ConversationState, record: OpenRecord) {
    this.#state = state;
    this.#record = record;
  }

  /**
   * The interaction's id: a random UUID, stable and unique (made when first read, or when
   * the turn is stored, then kept). Keep it with the message it answered to send feedback
   * later, from any instance, with `nebuly.feedback()`.
   */
  get id(): string {
    return this.#record.id;
  }

  /** Whether `end()` was called, or the conversation ended while the turn was open. */
  get ended(): boolean {
    return this.#record.ended;
  }

  /** Records a call to an LLM: the messages it was given (oldest first) and its output. */
  llm(step: LLMStepInput): this {
    if (this.#refuses('llm', true)) return this;
    return this.#add(llmRecord(step));
  }

  /** Records a call to a retriever or tool: its query and everything it returned. */
  retrieval(step: RetrievalStepInput): this {
    if (this.#refuses('retrieval', true)) return this;
    return this.#add(retrievalRecord(step));
  }

  /** Records a call to an embedding model. */
  embedding(step: EmbeddingStepInput): this {
    if (this.#refuses('embedding', true)) return this;
    return this.#add(embeddingRecord(step));
  }

  /**
   * Records the user's feedback on this turn's answer. Feedback usually comes after the
   * answer, so it is taken after `end()` too, as long as the conversation is open.
   */
  feedback(action: ConversationFeedbackAction): this {
    if (this.#refuses('feedback', false)) return this;
    const recorded = recordFeedback(action);
    // Once the recorder took the ended turn, it is in the store: the feedback goes there.
    if (this.#record.taken) this.#state.events.feedback(this.#record, recorded);
    else (this.#record.feedback ??= []).push(recorded);
    this.#state.lastActivityAt = this.#state.now();
    return this;
  }

  /**
   * A token the page sends back with its user's feedback on this answer, through
   * `nebuly.handleFeedback()`, without the API key: signed with `feedbackSecret`, it
   * names this interaction and expires after `ttlMs` (24 h by default). Send it with the
   * answer. Rejects without a `feedbackSecret`, or for a conversation of
   * `startConversation()` (feedback finds conversations by the id given to
   * `nebuly.conversation()`).
   *
   * @example
   * ```ts
   * turn.end({ output: answer });
   * return Response.json({ answer, feedbackToken: await turn.feedbackToken() });
   * ```
   */
  feedbackToken(options?: FeedbackTokenOptions): Promise<string> {
    const { feedbackToken, conversationId, key } = this.#state;
    const turn = { conversationId, interactionId: this.id, resumable: key === sharedKey(conversationId) };
    return feedbackToken?.(turn, options) ?? Promise.reject(new NebulyError('nebuly-client: turn.feedbackToken() needs a client'));
  }

  /** Ends the turn with the answer shown to the user; `time_end` is now. */
  end(params: EndInteractionParams): this {
    if (this.#refuses('end', true)) return this;
    const record = this.#record;
    const now = this.#state.now();
    record.output = endOutput(params);
    record.timeEnd = now;
    record.ended = true;
    this.#state.lastActivityAt = now;
    this.#state.events.ended(record);
    return this;
  }

  static {
    partsOf = (turn) => ({ state: turn.#state, record: turn.#record });
  }

  #add(step: Record<string, unknown>): this {
    this.#record.trace.push(step);
    this.#state.lastActivityAt = this.#state.now();
    return this;
  }

  /** Whether the call must be ignored; reports why. */
  #refuses(method: string, onlyWhileOpen: boolean): boolean {
    const state = this.#state;
    if (state.open && !(onlyWhileOpen && this.#record.ended)) return false;
    if (state.refused) return true;
    const id = state.conversationId;
    state.report(
      state.open
        ? new RecordingError(
            'interaction_ended',
            `turn.${method}() on an interaction of conversation ${id} that had already ended: not recorded`,
            id,
          )
        : new RecordingError(
            'conversation_ended',
            `turn.${method}() on conversation ${id} after it ended: not recorded`,
            id,
          ),
    );
    return true;
  }
}
