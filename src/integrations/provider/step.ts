import type { LLMStepInput } from '../../schemas/index.js';
import type { Ending, Finished } from './observe.js';
import { answerText, markedOutput, type StepMessage } from './text.js';

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
