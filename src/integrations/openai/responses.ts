/**
 * OpenAI `responses.create` (plain and `stream: true`, which `responses.stream()` uses
 * too) as an LLM step. Read structurally, like the chat mapping.
 */
import { responsesBilled } from './billed.js';
import type { MethodObserver } from '../provider/recording.js';
import { type Answer, type AnswerCollector, llmCallObserver, type ReadRequest } from '../provider/step.js';
import {
  answerText,
  arrayField,
  contentText,
  field,
  type StepMessage,
  stringField,
  systemFirst,
  tokenCount,
  toolCallText,
} from '../provider/text.js';
import { type ToolCallRequest, ToolRunReader } from '../tool-runs.js';
import { ResponseHistory } from './response-history.js';

/**
 * The responses kept for follow-ups with `previous_response_id`, in this process: the
 * last 1024, and at most 4 million characters of messages (about 8 MB).
 */
const history = new ResponseHistory(1024, 4_000_000);

/** A tool call item's request (`function_call`, `custom_tool_call`), else `undefined`. */
function callItemRequest(item: unknown): ToolCallRequest | undefined {
  const type = stringField(item, 'type');
  if (type === 'function_call') return { name: stringField(item, 'name'), input: field(item, 'arguments') };
  if (type === 'custom_tool_call') return { name: stringField(item, 'name'), input: field(item, 'input') };
  return undefined;
}

/** A tool call item (`function_call`, `custom_tool_call`) as text, else `undefined`. */
function callItemText(item: unknown): string | undefined {
  const request = callItemRequest(item);
  return request === undefined ? undefined : toolCallText(request.name, request.input);
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

/**
 * The request as recorded: `instructions` first, then the conversation so far (the kept
 * responses it continues, with `previous_response_id`), then its input items; and the
 * tool results it ends with.
 */
function responseRequest(params: unknown): ReadRequest {
  const previous = stringField(params, 'previous_response_id');
  const earlier = previous === undefined ? undefined : history.chain(previous);
  const tools = new ToolRunReader(earlier?.calls);
  const own: StepMessage[] = [];
  const input = field(params, 'input');
  if (typeof input === 'string') {
    own.push({ role: 'user', content: input });
  } else if (Array.isArray(input)) {
    for (const item of input) {
      const message = itemMessage(item);
      if (message === undefined) continue;
      own.push(message);
      const call = callItemRequest(item);
      if (call !== undefined) tools.call(stringField(item, 'call_id'), call);
      else if (message.role === 'tool') tools.result(stringField(item, 'call_id'), message.content);
      else tools.message();
    }
  }
  const messages: StepMessage[] = [];
  const instructions = stringField(params, 'instructions');
  if (instructions !== undefined && instructions !== '') messages.push({ role: 'system', content: instructions });
  messages.push(...(earlier?.messages ?? []), ...own);
  const remember = (response: unknown) => {
    const id = stringField(response, 'id');
    if (id === undefined) return;
    const calls = new Map<string, ToolCallRequest>();
    for (const item of arrayField(response, 'output')) {
      const call = callItemRequest(item);
      const callId = stringField(item, 'call_id');
      if (call !== undefined && callId !== undefined) calls.set(callId, call);
    }
    const answer = responseAnswer(response, undefined, { messages: [], toolRuns: [] });
    const said = own.filter((message) => message.role !== 'system');
    history.keep(id, { previous, messages: [...said, { role: 'assistant', content: answerText(answer.text, answer.toolCalls) }], calls });
  };
  return { messages: systemFirst(messages), toolRuns: tools.runs(), remember };
}

/**
 * @internal A whole response as the answer: its message texts and its tool calls, in
 * output order (also what the Agents SDK's response spans hold). `read`, when given,
 * remembers the response for a later `previous_response_id`.
 * @example
 * ```ts
 * const answer = responseAnswer(response, 'gpt-4.1');
 * ```
 */
export function responseAnswer(response: unknown, requested: string | undefined, read?: ReadRequest): Answer {
  read?.remember?.(response);
  const texts: string[] = [];
  const toolCalls: string[] = [];
  const toolCallIds: string[] = [];
  for (const item of arrayField(response, 'output')) {
    if (stringField(item, 'type') === 'message') {
      const text = contentText(field(item, 'content'), '');
      if (text !== '') texts.push(text);
    } else {
      const call = callItemText(item);
      if (call !== undefined) toolCalls.push(call);
      const id = stringField(item, 'call_id');
      if (call !== undefined && id !== undefined) toolCallIds.push(id);
    }
  }
  const usage = field(response, 'usage');
  return {
    model: stringField(response, 'model') ?? requested,
    text: texts.join('\n'),
    toolCalls,
    toolCallIds,
    inputTokens: tokenCount(field(usage, 'input_tokens')),
    outputTokens: tokenCount(field(usage, 'output_tokens')),
    billed: responsesBilled(usage),
  };
}

/** Collects a streamed response: text deltas and finished tool calls until the final event. */
class EventCollector implements AnswerCollector {
  #model: string | undefined;
  #text = '';
  readonly #toolCalls: string[] = [];
  /** The whole response, from `response.completed` (or `.incomplete`, `.failed`). */
  #final: unknown;
  readonly #read: ReadRequest;

  constructor(model: string | undefined, read: ReadRequest) {
    this.#model = model;
    this.#read = read;
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
      ? responseAnswer(this.#final, this.#model, this.#read)
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
  request: responseRequest,
  answer: responseAnswer,
  collector: (model, read) => new EventCollector(model, read),
});
