/**
 * What LangChain's run callbacks carry, read as Nebuly steps: the model a run asked for
 * and answered with, a generation's answer, a failed run's outputs.
 */
import type { Serialized } from '@langchain/core/load/serializable';
import type { LLMResult } from '@langchain/core/outputs';
import type { Answer } from '../provider/step.js';
import { markedOutput, tokenCount } from '../provider/text.js';
import { isObject } from '../readable.js';
import { contentOf, toolCallIds, toolCallTexts } from './messages.js';

/** The last part of a serialized runnable's id: its class name (`ChatOpenAI`). */
export function classNameOf(serialized: Serialized | undefined): string | undefined {
  const id: unknown = serialized?.id;
  return Array.isArray(id) && typeof id.at(-1) === 'string' ? (id.at(-1) as string) : undefined;
}

/** The first of `keys` that holds a non-empty string. */
export function firstString(source: unknown, ...keys: string[]): string | undefined {
  if (!isObject(source)) return undefined;
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/**
 * The version of @langchain/core a model run is of: LangChain's models list the packages
 * they are built from in their metadata (`versions: { '@langchain/core': '1.4.0' }`),
 * which their runs carry; `undefined` when the run's metadata has none.
 */
export function coreVersion(metadata: Record<string, unknown> | undefined): string | undefined {
  return firstString(metadata?.versions, '@langchain/core');
}

/** The model a run asked for: its invocation parameters, LangChain's tracing metadata, its settings, else its class. */
export function requestedModel(llm: Serialized, extraParams: Record<string, unknown> | undefined, metadata: Record<string, unknown> | undefined) {
  return (
    firstString(extraParams?.invocation_params, 'model', 'model_name', 'modelName') ??
    firstString(metadata, 'ls_model_name') ??
    firstString((llm as { kwargs?: unknown }).kwargs, 'model', 'model_name', 'modelName') ??
    classNameOf(llm) ??
    'unknown'
  );
}

/**
 * The output tokens a streamed run's first chunk counted, when it is ChatAnthropic's
 * `message_start` (its fields in `additional_kwargs`, `type: 'message'`): Anthropic's
 * `message_start` usage counts the first output tokens and `message_delta` counts them
 * all again (cumulative), and LangChain adds the two chunks' `usage_metadata` up.
 * @example
 * ```ts
 * streamStartOutputTokens(fields.chunk); // 1
 * ```
 */
export function streamStartOutputTokens(chunk: unknown): number | undefined {
  const message = isObject(chunk) ? chunk.message : undefined;
  if (!isObject(message) || !isObject(message.additional_kwargs) || message.additional_kwargs.type !== 'message') return undefined;
  return isObject(message.usage_metadata) ? tokenCount(message.usage_metadata.output_tokens) : undefined;
}

/**
 * A generation's answer: its message's text and tool calls, the model that gave it (the
 * response's: its message's `response_metadata`, else, for a streamed run, the
 * generation's `generationInfo`, else the `model` ChatAnthropic keeps from the stream's
 * `message_start` in `additional_kwargs`; else the one asked for), and its token counts
 * (`usage_metadata`, else the LLM output's `tokenUsage`; a ChatAnthropic stream's output
 * counted once: `startOutputTokens`, see {@link streamStartOutputTokens}).
 */
export function generationAnswer(output: LLMResult, requested: string, startOutputTokens?: number): Answer {
  const generation: unknown = output.generations[0]?.[0];
  const message = isObject(generation) ? generation.message : undefined;
  const usage = isObject(message) && isObject(message.usage_metadata) ? message.usage_metadata : undefined;
  const legacy = isObject(output.llmOutput) && isObject(output.llmOutput.tokenUsage) ? output.llmOutput.tokenUsage : undefined;
  return {
    model:
      (isObject(message) ? firstString(message.response_metadata, 'model_name', 'model') : undefined) ??
      (isObject(generation) ? firstString(generation.generationInfo, 'model_name', 'model') : undefined) ??
      (isObject(message) ? firstString(message.additional_kwargs, 'model') : undefined) ??
      requested,
    text: isObject(message) ? contentOf(message.content) : (firstString(generation, 'text') ?? ''),
    toolCalls: toolCallTexts(message),
    toolCallIds: toolCallIds(message),
    inputTokens: tokenCount(usage !== undefined ? usage.input_tokens : legacy?.promptTokens),
    outputTokens: outputTokens(tokenCount(usage !== undefined ? usage.output_tokens : legacy?.completionTokens), startOutputTokens),
  };
}

/** The output tokens, the stream start's counted once (only when the later chunks counted them again). */
function outputTokens(counted: number | undefined, startOutputTokens: number | undefined): number | undefined {
  return counted !== undefined && startOutputTokens !== undefined && counted > startOutputTokens ? counted - startOutputTokens : counted;
}

/** What a failed tool or retriever run returned: a mark that says so. */
export function failedOutputs(error: unknown): string[] {
  return [markedOutput('', { kind: 'call-failed', error })];
}

