/**
 * A Bedrock Converse answer (a `ConverseCommand` output, or the events of a
 * `ConverseStreamCommand` output's stream) as the answer an LLM step records. Converse
 * names no model in its answer: the step's model is the request's `modelId`.
 */
import type { AnswerCollector } from '../provider/step.js';
import { asString, fieldsOf, tokenCount, toolCallText } from '../provider/text.js';
import { billedOf, type DetailedAnswer } from '../token-details.js';

// Read by name, not with `field()`: this runs on every call (see `fieldsOf`).

type Usage = Pick<DetailedAnswer, 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'cacheWriteTokens'>;

/**
 * Token counts of a Converse `usage`: input as the model processed it, the uncached
 * `inputTokens` plus those read from and written to the prompt cache (Bedrock counts
 * them apart, as Anthropic does); the cache's parts kept beside.
 */
function usageOf(usage: unknown): Usage {
  const fields = fieldsOf(usage);
  const uncached = tokenCount(fields?.inputTokens);
  const cacheRead = tokenCount(fields?.cacheReadInputTokens);
  const cacheWrite = tokenCount(fields?.cacheWriteInputTokens);
  return {
    inputTokens: uncached === undefined ? undefined : uncached + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: tokenCount(fields?.outputTokens),
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

const NO_BLOCKS: readonly unknown[] = [];

/**
 * A `ConverseCommand` output as the answer: its message's text blocks in order (one
 * text), then its tool uses.
 * @example
 * ```ts
 * converseAnswer(output, 'anthropic.claude-sonnet-4-5-20250929-v1:0').text; // 'Order 7 shipped.'
 * ```
 */
export function converseAnswer(output: unknown, modelId: string | undefined): DetailedAnswer {
  let text = '';
  const toolCalls: string[] = [];
  const toolCallIds: string[] = [];
  const fields = fieldsOf(output);
  const content = fieldsOf(fieldsOf(fields?.output)?.message)?.content;
  for (const block of Array.isArray(content) ? content : NO_BLOCKS) {
    const blockFields = fieldsOf(block);
    const use = blockFields?.toolUse;
    if (use !== undefined && use !== null) {
      const useFields = fieldsOf(use);
      toolCalls.push(toolCallText(asString(useFields?.name), useFields?.input));
      const id = asString(useFields?.toolUseId);
      if (id !== undefined) toolCallIds.push(id);
    } else {
      text += asString(blockFields?.text) ?? '';
    }
  }
  const usage = usageOf(fields?.usage);
  const answer: DetailedAnswer = {
    model: modelId,
    text,
    toolCalls,
    toolCallIds,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedInputTokens: usage.cachedInputTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
  };
  // Cache reads and writes billed at their own rates: the step's `cost`.
  answer.billed = billedOf(answer);
  return answer;
}

/** A content block being streamed: text, or a tool use whose input JSON arrives in pieces. */
interface StreamedBlock {
  toolUse: { id: string | undefined; name: string | undefined } | undefined;
  text: string;
}

/**
 * Collects the events of a `ConverseStreamCommand` output's stream: blocks by
 * `contentBlockIndex`, usage from the `metadata` event.
 * @example
 * ```ts
 * const collector = new ConverseEventCollector(modelId);
 * for await (const event of output.stream) collector.add(event);
 * collector.answer();
 * ```
 */
export class ConverseEventCollector implements AnswerCollector {
  readonly #model: string | undefined;
  readonly #blocks: StreamedBlock[] = [];
  #usage: Usage = { inputTokens: undefined, outputTokens: undefined };

  constructor(modelId: string | undefined) {
    this.#model = modelId;
  }

  #block(event: Readonly<Record<string, unknown>> | undefined): StreamedBlock | undefined {
    const index = event?.contentBlockIndex;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return undefined;
    return (this.#blocks[index] ??= { toolUse: undefined, text: '' });
  }

  add(event: unknown): void {
    const fields = fieldsOf(event);
    const start = fields?.contentBlockStart;
    if (start !== undefined) {
      const startFields = fieldsOf(start);
      const use = fieldsOf(startFields?.start)?.toolUse;
      const block = this.#block(startFields);
      if (block !== undefined && use !== undefined && use !== null) {
        const useFields = fieldsOf(use);
        block.toolUse = { id: asString(useFields?.toolUseId), name: asString(useFields?.name) };
      }
      return;
    }
    const delta = fields?.contentBlockDelta;
    if (delta !== undefined) {
      const deltaFields = fieldsOf(delta);
      const block = this.#block(deltaFields);
      const change = fieldsOf(deltaFields?.delta);
      if (block !== undefined) block.text += asString(change?.text) ?? asString(fieldsOf(change?.toolUse)?.input) ?? '';
      return;
    }
    const metadata = fields?.metadata;
    if (metadata !== undefined) this.#usage = usageOf(fieldsOf(metadata)?.usage);
  }

  answer(): DetailedAnswer {
    let text = '';
    const toolCalls: string[] = [];
    const toolCallIds: string[] = [];
    for (const block of this.#blocks) {
      if (block === undefined) continue;
      if (block.toolUse === undefined) {
        text += block.text;
        continue;
      }
      toolCalls.push(toolCallText(block.toolUse.name, block.text === '' ? '{}' : block.text));
      if (block.toolUse.id !== undefined) toolCallIds.push(block.toolUse.id);
    }
    const answer: DetailedAnswer = { model: this.#model, text, toolCalls, toolCallIds, ...this.#usage };
    answer.billed = billedOf(answer);
    return answer;
  }
}
