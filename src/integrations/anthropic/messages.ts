/**
 * Anthropic `messages.create` (plain and `stream: true`, which `messages.stream()` uses
 * too) as an LLM step. Read structurally: only the fields used here, each checked.
 */
import type { MethodObserver } from '../provider/recording.js';
import type { BilledTokens } from '../model-prices.js';
import { type Answer, type AnswerCollector, llmCallObserver, type ReadRequest } from '../provider/step.js';
import {
  answerText,
  arrayField,
  contentText,
  field,
  partText,
  type StepMessage,
  stringField,
  tokenCount,
  toolCallText,
} from '../provider/text.js';
import { ToolRunReader } from '../tool-runs.js';

const TOOL_USES = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * One request message as recorded messages: tool results (in a user message) become
 * messages of role `tool`, each; the rest of its blocks, as text, the message itself.
 * Its tool calls and results go to `tools`.
 */
function stepMessages(message: unknown, tools: ToolRunReader): StepMessage[] {
  const role = stringField(message, 'role') === 'assistant' ? 'assistant' : 'user';
  const content = field(message, 'content');
  if (!Array.isArray(content)) {
    tools.message();
    return [{ role, content: contentText(content) }];
  }
  const texts: string[] = [];
  const toolCalls: string[] = [];
  const toolResults: StepMessage[] = [];
  if (role === 'assistant') tools.message();
  for (const block of content) {
    const type = stringField(block, 'type');
    if (type === 'tool_result') {
      const result = contentText(field(block, 'content'));
      toolResults.push({ role: 'tool', content: result });
      tools.result(stringField(block, 'tool_use_id'), result);
    } else if (type !== undefined && TOOL_USES.has(type)) {
      toolCalls.push(toolCallText(stringField(block, 'name'), field(block, 'input')));
      tools.call(stringField(block, 'id'), { name: stringField(block, 'name'), input: field(block, 'input') });
    } else {
      const text = partText(block);
      if (text !== '') texts.push(text);
    }
  }
  const own = answerText(texts.join('\n'), toolCalls);
  if (own === '' && toolResults.length > 0) return toolResults;
  if (role === 'user') tools.message(); // words of the user after the results: a new message
  return [...toolResults, { role, content: own }];
}

/** The request as recorded messages (`system` first, then the messages in order) and its tool runs. */
function anthropicRequest(params: unknown): ReadRequest {
  const messages: StepMessage[] = [];
  const tools = new ToolRunReader();
  const system = contentText(field(params, 'system'));
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of arrayField(params, 'messages')) messages.push(...stepMessages(message, tools));
  return { messages, toolRuns: tools.runs() };
}

/**
 * Input tokens as billed: the uncached ones plus those written to and read from the
 * prompt cache (Anthropic counts them apart).
 */
function inputTokens(usage: unknown): number | undefined {
  const uncached = tokenCount(field(usage, 'input_tokens'));
  if (uncached === undefined) return undefined;
  return uncached + (tokenCount(field(usage, 'cache_creation_input_tokens')) ?? 0) + (tokenCount(field(usage, 'cache_read_input_tokens')) ?? 0);
}

/**
 * The tokens as billed (`input_tokens` holds only the uncached ones), when the usage says
 * how many were read from or written to the prompt cache.
 */
function billedTokens(usage: unknown, outputTokens: number | undefined): BilledTokens | undefined {
  const input = tokenCount(field(usage, 'input_tokens'));
  if (input === undefined || outputTokens === undefined) return undefined;
  const cachedInput = tokenCount(field(usage, 'cache_read_input_tokens')) ?? 0;
  const cacheWrite = tokenCount(field(usage, 'cache_creation_input_tokens')) ?? 0;
  return { input, cachedInput, cacheWrite, output: outputTokens, reasoning: 0 };
}

/** A message's answer: its text blocks in order (one text), then its tool calls. */
function messageAnswer(message: unknown, requested: string | undefined): Answer {
  let text = '';
  const toolCalls: string[] = [];
  const toolCallIds: string[] = [];
  for (const block of arrayField(message, 'content')) {
    const type = stringField(block, 'type');
    if (type === 'text') text += stringField(block, 'text') ?? '';
    else if (type !== undefined && TOOL_USES.has(type)) {
      toolCalls.push(toolCallText(stringField(block, 'name'), field(block, 'input')));
      const id = stringField(block, 'id');
      if (id !== undefined) toolCallIds.push(id);
    }
  }
  const usage = field(message, 'usage');
  const outputTokens = tokenCount(field(usage, 'output_tokens'));
  return {
    model: stringField(message, 'model') ?? requested,
    text,
    toolCalls,
    toolCallIds,
    inputTokens: inputTokens(usage),
    outputTokens,
    billed: billedTokens(usage, outputTokens),
  };
}

/** A content block being streamed: text, or a tool call whose input JSON arrives in pieces. */
interface StreamedBlock {
  type: string;
  id: string | undefined;
  name: string | undefined;
  text: string;
}

/** Collects a streamed message: blocks by `index`, usage from the start and delta events. */
class EventCollector implements AnswerCollector {
  #model: string | undefined;
  readonly #blocks: StreamedBlock[] = [];
  #inputTokens: number | undefined;
  #outputTokens: number | undefined;
  /** The usage's fields as the latest event that had each gave them. */
  readonly #usage: Record<string, unknown> = {};

  constructor(model: string | undefined) {
    this.#model = model;
  }

  add(event: unknown): void {
    switch (stringField(event, 'type')) {
      case 'message_start': {
        const message = field(event, 'message');
        this.#model = stringField(message, 'model') ?? this.#model;
        this.#readUsage(field(message, 'usage'));
        break;
      }
      case 'content_block_start': {
        const block = field(event, 'content_block');
        const index = field(event, 'index');
        if (typeof index !== 'number') break;
        const type = stringField(block, 'type') ?? '';
        // A tool call's input starts as `{}` and is then streamed whole, as JSON pieces.
        this.#blocks[index] = { type, id: stringField(block, 'id'), name: stringField(block, 'name'), text: type === 'text' ? (stringField(block, 'text') ?? '') : '' };
        break;
      }
      case 'content_block_delta': {
        const index = field(event, 'index');
        const block = typeof index === 'number' ? this.#blocks[index] : undefined;
        if (block === undefined) break;
        const delta = field(event, 'delta');
        block.text += stringField(delta, 'text') ?? stringField(delta, 'partial_json') ?? '';
        break;
      }
      case 'message_delta':
        this.#readUsage(field(event, 'usage'));
        break;
      default:
        break;
    }
  }

  /** Counts as the latest event gives them: `output_tokens` is cumulative. */
  #readUsage(usage: unknown): void {
    if (typeof usage !== 'object' || usage === null) return;
    for (const [name, value] of Object.entries(usage)) if (value !== null && value !== undefined) this.#usage[name] = value;
    this.#inputTokens = inputTokens(this.#usage) ?? this.#inputTokens;
    this.#outputTokens = tokenCount(field(usage, 'output_tokens')) ?? this.#outputTokens;
  }

  answer(): Answer {
    let text = '';
    const toolCalls: string[] = [];
    const toolCallIds: string[] = [];
    for (const block of this.#blocks) {
      if (block === undefined) continue;
      if (block.type === 'text') text += block.text;
      else if (TOOL_USES.has(block.type)) {
        toolCalls.push(toolCallText(block.name, block.text === '' ? '{}' : block.text));
        if (block.id !== undefined) toolCallIds.push(block.id);
      }
    }
    return {
      model: this.#model,
      text,
      toolCalls,
      toolCallIds,
      inputTokens: this.#inputTokens,
      outputTokens: this.#outputTokens,
      billed: billedTokens(this.#usage, this.#outputTokens),
    };
  }
}

/**
 * Observes `messages.create`.
 * @example
 * ```ts
 * new Map([['messages.create', messagesObserver]]);
 * ```
 */
export const messagesObserver: MethodObserver = llmCallObserver({
  request: anthropicRequest,
  answer: messageAnswer,
  collector: (model) => new EventCollector(model),
});
