/**
 * OpenAI `responses.create` (plain and `stream: true`, which `responses.stream()` uses
 * too) as an LLM step. Read structurally, like the chat mapping.
 */
import type { MethodObserver } from '../provider/recording.js';
import { type Answer, type AnswerCollector, llmCallObserver } from '../provider/step.js';
import {
  arrayField,
  contentText,
  field,
  type StepMessage,
  stringField,
  systemFirst,
  tokenCount,
  toolCallText,
} from '../provider/text.js';

/** A tool call item (`function_call`, `custom_tool_call`) as text, else `undefined`. */
function callItemText(item: unknown): string | undefined {
  const type = stringField(item, 'type');
  if (type === 'function_call') return toolCallText(stringField(item, 'name'), field(item, 'arguments'));
  if (type === 'custom_tool_call') return toolCallText(stringField(item, 'name'), field(item, 'input'));
  return undefined;
}

/** One input item as a recorded message; items that say nothing readable are skipped. */
function itemMessage(item: unknown): StepMessage | undefined {
  if (typeof item === 'string') return { role: 'user', content: item };
  const call = callItemText(item);
  if (call !== undefined) return { role: 'assistant', content: call };
  const type = stringField(item, 'type');
  if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    return { role: 'tool', content: contentText(field(item, 'output')) };
  }
  const role = stringField(item, 'role');
  if (role === undefined) return undefined; // reasoning, item references, built-in tool calls
  const content = contentText(field(item, 'content'));
  if (role === 'system' || role === 'developer') return { role: 'system', content };
  return { role: role === 'assistant' ? 'assistant' : 'user', content };
}

/** The request as recorded messages: `instructions` first, then the input items. */
function responseMessages(params: unknown): StepMessage[] {
  const messages: StepMessage[] = [];
  const instructions = stringField(params, 'instructions');
  if (instructions !== undefined && instructions !== '') messages.push({ role: 'system', content: instructions });
  const input = field(params, 'input');
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
  } else if (Array.isArray(input)) {
    for (const item of input) {
      const message = itemMessage(item);
      if (message !== undefined) messages.push(message);
    }
  }
  return systemFirst(messages);
}

/**
 * @internal A whole response as the answer: its message texts and its tool calls, in
 * output order (also what the Agents SDK's response spans hold).
 * @example
 * ```ts
 * const answer = responseAnswer(response, 'gpt-4.1');
 * ```
 */
export function responseAnswer(response: unknown, requested: string | undefined): Answer {
  const texts: string[] = [];
  const toolCalls: string[] = [];
  for (const item of arrayField(response, 'output')) {
    if (stringField(item, 'type') === 'message') {
      const text = contentText(field(item, 'content'), '');
      if (text !== '') texts.push(text);
    } else {
      const call = callItemText(item);
      if (call !== undefined) toolCalls.push(call);
    }
  }
  const usage = field(response, 'usage');
  return {
    model: stringField(response, 'model') ?? requested,
    text: texts.join('\n'),
    toolCalls,
    inputTokens: tokenCount(field(usage, 'input_tokens')),
    outputTokens: tokenCount(field(usage, 'output_tokens')),
  };
}

/** Collects a streamed response: text deltas and finished tool calls until the final event. */
class EventCollector implements AnswerCollector {
  #model: string | undefined;
  #text = '';
  readonly #toolCalls: string[] = [];
  /** The whole response, from `response.completed` (or `.incomplete`, `.failed`). */
  #final: unknown;

  constructor(model: string | undefined) {
    this.#model = model;
  }

  add(event: unknown): void {
    switch (stringField(event, 'type')) {
      case 'response.created':
        this.#model = stringField(field(event, 'response'), 'model') ?? this.#model;
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.#text += stringField(event, 'delta') ?? '';
        break;
      case 'response.output_item.done': {
        const call = callItemText(field(event, 'item'));
        if (call !== undefined) this.#toolCalls.push(call);
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        this.#final = field(event, 'response');
        break;
      default:
        break;
    }
  }

  answer(): Answer {
    return this.#final !== undefined
      ? responseAnswer(this.#final, this.#model)
      : { model: this.#model, text: this.#text, toolCalls: this.#toolCalls, inputTokens: undefined, outputTokens: undefined };
  }
}

/**
 * Observes `responses.create`.
 * @example
 * ```ts
 * new Map([['responses.create', responsesObserver]]);
 * ```
 */
export const responsesObserver: MethodObserver = llmCallObserver({
  messages: responseMessages,
  answer: responseAnswer,
  collector: (model) => new EventCollector(model),
});
