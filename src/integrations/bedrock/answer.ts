/**
 * A Bedrock Converse answer (a `ConverseCommand` output, or the events of a
 * `ConverseStreamCommand` output's stream) as the answer an LLM step records. Converse
 * names no model in its answer: the step's model is the request's `modelId`.
 */
import type { AnswerCollector } from '../provider/step.js';
import { arrayField, field, stringField, tokenCount, toolCallText } from '../provider/text.js';
import type { DetailedAnswer } from '../token-details.js';

type Usage = Pick<DetailedAnswer, 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'cacheWriteTokens'>;

/**
 * Token counts of a Converse `usage`: input as the model processed it, the uncached
 * `inputTokens` plus those read from and written to the prompt cache (Bedrock counts
 * them apart, as Anthropic does); the cache's parts kept beside.
 */
function usageOf(usage: unknown): Usage {
  const uncached = tokenCount(field(usage, 'inputTokens'));
  const cacheRead = tokenCount(field(usage, 'cacheReadInputTokens'));
  const cacheWrite = tokenCount(field(usage, 'cacheWriteInputTokens'));
  return {
    inputTokens: uncached === undefined ? undefined : uncached + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: tokenCount(field(usage, 'outputTokens')),
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

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
  for (const block of arrayField(field(field(output, 'output'), 'message'), 'content')) {
    const use = field(block, 'toolUse');
    if (use !== undefined && use !== null) {
      toolCalls.push(toolCallText(stringField(use, 'name'), field(use, 'input')));
      const id = stringField(use, 'toolUseId');
      if (id !== undefined) toolCallIds.push(id);
    } else {
      text += stringField(block, 'text') ?? '';
    }
  }
  return { model: modelId, text, toolCalls, toolCallIds, ...usageOf(field(output, 'usage')) };
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

  #block(event: unknown): StreamedBlock | undefined {
    const index = field(event, 'contentBlockIndex');
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return undefined;
    return (this.#blocks[index] ??= { toolUse: undefined, text: '' });
  }

  add(event: unknown): void {
    const start = field(event, 'contentBlockStart');
    if (start !== undefined) {
      const use = field(field(start, 'start'), 'toolUse');
      const block = this.#block(start);
      if (block !== undefined && use !== undefined && use !== null) block.toolUse = { id: stringField(use, 'toolUseId'), name: stringField(use, 'name') };
      return;
    }
    const delta = field(event, 'contentBlockDelta');
    if (delta !== undefined) {
      const block = this.#block(delta);
      const change = field(delta, 'delta');
      if (block !== undefined) block.text += stringField(change, 'text') ?? stringField(field(change, 'toolUse'), 'input') ?? '';
      return;
    }
    const metadata = field(event, 'metadata');
    if (metadata !== undefined) this.#usage = usageOf(field(metadata, 'usage'));
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
    return { model: this.#model, text, toolCalls, toolCallIds, ...this.#usage };
  }
}
