import type { LLMStepInput } from '../../schemas/index.js';
import type { BilledTokens } from '../model-prices.js';
import type { ToolRun } from '../tool-runs.js';
import type { CallRecording, Ending, Finished, MethodObserver, PreparedCall, StreamRecording } from './recording.js';
import { answerText, field, lastUserText, markedOutput, type StepMessage, stringField } from './text.js';

/**
 * What a model call answered, whole or in part.
 * @example
 * ```ts
 * const answer: Answer = { model: 'gpt-4o', text: 'Hi!', toolCalls: [], inputTokens: 9, outputTokens: 2 };
 * ```
 */
export interface Answer {
  /** The model that answered (the response's), else the one asked for. */
  model: string | undefined;
  text: string;
  /** Each tool call, as text (`name(arguments)`). */
  toolCalls: readonly string[];
  /** The tool calls' ids, as many as the provider gave: the next call's tool results answer them. */
  toolCallIds?: readonly string[] | undefined;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  /** The tokens as billed, when the provider said them apart (cached, cache writes, reasoning). */
  billed?: BilledTokens | undefined;
}

/**
 * An LLM step and the interaction's output, from the request's messages and the answer.
 * An answer that asks for tools is not the end of its interaction: its output is its text
 * alone (the tool calls are no answer the user sees), and it awaits the tools' results.
 * @example
 * ```ts
 * llmFinished(messages, answer, { kind: 'aborted' }).output; // 'Hi\n[nebuly: stream aborted, output incomplete]'
 * ```
 */
export function llmFinished(
  messages: StepMessage[],
  answer: Answer,
  ending: Ending | { kind: 'call-failed'; error: unknown },
): Finished {
  const output = markedOutput(answerText(answer.text, answer.toolCalls), ending);
  const llm: LLMStepInput = { model: answer.model ?? '', messages, output };
  if (answer.inputTokens !== undefined) llm.input_tokens = answer.inputTokens;
  if (answer.outputTokens !== undefined) llm.output_tokens = answer.outputTokens;
  const { billed } = answer;
  if (answer.toolCalls.length === 0) return { llm, output, billed };
  if (ending.kind === 'complete') return { llm, output: answer.text, awaitsTools: answer.toolCallIds ?? [], billed };
  return { llm, output: markedOutput(answer.text, ending), billed };
}

/**
 * A call that failed before any answer: the step says so, with what was asked.
 * @example
 * ```ts
 * failedCall(messages, 'gpt-4o', rateLimitError).output; // '[nebuly: call failed (429 RateLimitError)]'
 * ```
 */
export function failedCall(messages: StepMessage[], model: string | undefined, error: unknown): Finished {
  return llmFinished(
    messages,
    { model, text: '', toolCalls: [], inputTokens: undefined, outputTokens: undefined },
    { kind: 'call-failed', error },
  );
}

/**
 * Assembles a streamed answer from its chunks (or events), in the order they arrive.
 * @example
 * ```ts
 * for (const chunk of chunks) collector.add(chunk);
 * const answer = collector.answer();
 * ```
 */
export interface AnswerCollector {
  add(chunk: unknown): void;
  /** The answer so far: whole once the stream ended, else what arrived. */
  answer(): Answer;
}

/** How a call that answered whole ended. */
export const COMPLETE: Ending = { kind: 'complete' };

/**
 * A streamed answer, collected chunk by chunk, finished as an LLM step of `messages`.
 * @example
 * ```ts
 * const stream = new CollectedStream(new GeminiCollector(model), messages);
 * stream.add(chunk);
 * stream.finish({ kind: 'complete' });
 * ```
 */
export class CollectedStream implements StreamRecording {
  readonly #collector: AnswerCollector;
  readonly #messages: StepMessage[];

  constructor(collector: AnswerCollector, messages: StepMessage[]) {
    this.#collector = collector;
    this.#messages = messages;
  }

  add(chunk: unknown): void {
    this.#collector.add(chunk);
  }

  finish(ending: Ending): Finished {
    return llmFinished(this.#messages, this.#collector.answer(), ending);
  }
}

/**
 * A request as recorded: its messages, and the tool results it ends with.
 * @example
 * ```ts
 * const read: ReadRequest = { messages: [{ role: 'user', content: 'Hi' }], toolRuns: [] };
 * ```
 */
export interface ReadRequest {
  messages: StepMessage[];
  toolRuns: ToolRun[];
  /** Keeps what a later request may refer to (a response id): called with the whole answer. */
  remember?: ((response: unknown) => void) | undefined;
}

/**
 * How one provider method's call reads as an LLM step: what differs between the
 * provider mappings (OpenAI chat, OpenAI responses, Anthropic messages).
 * @example
 * ```ts
 * const messagesObserver = llmCallObserver({ request: anthropicRequest, answer: messageAnswer, collector: (model) => new EventCollector(model) });
 * ```
 */
export interface LLMCallMapping {
  /** The request's messages as recorded, and its tool runs. */
  request(params: unknown): ReadRequest;
  /** A whole (not streamed) result as the answer; `requested` is the request's model. */
  answer(result: unknown, requested: string | undefined, read: ReadRequest): Answer;
  /** A new collector for a streamed answer. */
  collector(requested: string | undefined, read: ReadRequest): AnswerCollector;
  /** See {@link MethodObserver.prepare}. */
  prepare?(args: unknown[]): PreparedCall;
}

/**
 * The observer of a provider method whose call is one LLM step: the interaction's input
 * is the last user message's text, the request's `stream: true` says it streams, and a
 * call that fails before an answer is a step that says so.
 * @example
 * ```ts
 * const observers = new Map([['messages.create', llmCallObserver(anthropicMapping)]]);
 * ```
 */
export function llmCallObserver(mapping: LLMCallMapping): MethodObserver {
  const observer: MethodObserver = {
    begin(params): CallRecording {
      const read = mapping.request(params);
      const { messages, toolRuns } = read;
      const model = stringField(params, 'model');
      return {
        input: lastUserText(messages),
        toolRuns,
        streams: field(params, 'stream') === true,
        complete: (result) => llmFinished(messages, mapping.answer(result, model, read), COMPLETE),
        stream: () => new CollectedStream(mapping.collector(model, read), messages),
        failed: (error) => failedCall(messages, model, error),
      };
    },
  };
  const prepare = mapping.prepare?.bind(mapping);
  if (prepare !== undefined) observer.prepare = prepare;
  return observer;
}
