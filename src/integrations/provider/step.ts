import type { LLMStepInput } from '../../schemas/index.js';
import type { CallRecording, Ending, Finished, MethodObserver } from './recording.js';
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
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/**
 * An LLM step and the interaction's output, from the request's messages and the answer.
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
  return { llm, output };
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

/**
 * How one provider method's call reads as an LLM step: what differs between the
 * provider mappings (OpenAI chat, OpenAI responses, Anthropic messages).
 * @example
 * ```ts
 * const messagesObserver = llmCallObserver({ messages: anthropicMessages, answer: messageAnswer, collector: (model) => new EventCollector(model) });
 * ```
 */
export interface LLMCallMapping {
  /** The request's messages as recorded. */
  messages(params: unknown): StepMessage[];
  /** A whole (not streamed) result as the answer; `requested` is the request's model. */
  answer(result: unknown, requested: string | undefined): Answer;
  /** A new collector for a streamed answer. */
  collector(requested: string | undefined): AnswerCollector;
  /** See {@link MethodObserver.prepare}. */
  prepare?(args: unknown[]): unknown[];
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
      const messages = mapping.messages(params);
      const model = stringField(params, 'model');
      return {
        input: lastUserText(messages),
        streams: field(params, 'stream') === true,
        complete: (result) => llmFinished(messages, mapping.answer(result, model), { kind: 'complete' }),
        stream: () => {
          const collector = mapping.collector(model);
          return { add: (chunk) => collector.add(chunk), finish: (ending) => llmFinished(messages, collector.answer(), ending) };
        },
        failed: (error) => failedCall(messages, model, error),
      };
    },
  };
  const prepare = mapping.prepare?.bind(mapping);
  if (prepare !== undefined) observer.prepare = prepare;
  return observer;
}
