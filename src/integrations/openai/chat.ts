/**
 * OpenAI `chat.completions.create` (plain and `stream: true`, which the
 * `chat.completions.stream()` helper uses too) as an LLM step. Read structurally: only the
 * fields used here, each checked, so that a neighbouring major still maps.
 */
import { chatBilled } from './billed.js';
import type { MethodObserver, PreparedCall } from '../provider/recording.js';
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
import { ToolRunReader } from '../tool-runs.js';

/** The ids of a chat message's tool calls. */
function toolCallIdsOf(message: unknown): string[] {
  const ids: string[] = [];
  for (const call of arrayField(message, 'tool_calls')) {
    const id = stringField(call, 'id');
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** The tool calls of a chat message (`tool_calls`, or the older `function_call`) as text. */
function toolCallsOf(message: unknown): string[] {
  const calls: string[] = [];
  for (const call of arrayField(message, 'tool_calls')) {
    const fn = field(call, 'function') ?? field(call, 'custom');
    calls.push(toolCallText(stringField(fn, 'name'), field(fn, 'arguments') ?? field(fn, 'input')));
  }
  const legacy = field(message, 'function_call');
  if (legacy !== undefined && legacy !== null) {
    calls.push(toolCallText(stringField(legacy, 'name'), field(legacy, 'arguments')));
  }
  return calls;
}

/** A request message as recorded: roles folded onto the wire's four, content as text. */
function stepMessage(message: unknown): StepMessage {
  const role = stringField(message, 'role');
  const content = contentText(field(message, 'content'));
  switch (role) {
    case 'system':
    case 'developer':
      return { role: 'system', content };
    case 'assistant':
      return { role: 'assistant', content: answerText(content || (stringField(message, 'refusal') ?? ''), toolCallsOf(message)) };
    case 'tool':
    case 'function':
      return { role: 'tool', content };
    default:
      return { role: 'user', content };
  }
}

/** The request's messages as recorded (system messages first, each as text), and its tool runs. */
function chatRequest(params: unknown): ReadRequest {
  const tools = new ToolRunReader();
  const messages: StepMessage[] = [];
  for (const message of arrayField(params, 'messages')) {
    const recorded = stepMessage(message);
    messages.push(recorded);
    if (recorded.role === 'tool') {
      tools.result(stringField(message, 'tool_call_id'), recorded.content);
      continue;
    }
    tools.message();
    for (const call of arrayField(message, 'tool_calls')) {
      const fn = field(call, 'function') ?? field(call, 'custom');
      tools.call(stringField(call, 'id'), { name: stringField(fn, 'name'), input: field(fn, 'arguments') ?? field(fn, 'input') });
    }
  }
  return { messages: systemFirst(messages), toolRuns: tools.runs() };
}

/** A whole chat completion as the answer: its first choice. */
function completionAnswer(completion: unknown, requested: string | undefined): Answer {
  const message = field(arrayField(completion, 'choices')[0], 'message');
  const usage = field(completion, 'usage');
  return {
    model: stringField(completion, 'model') ?? requested,
    text: contentText(field(message, 'content')) || (stringField(message, 'refusal') ?? ''),
    toolCalls: toolCallsOf(message),
    toolCallIds: toolCallIdsOf(message),
    inputTokens: tokenCount(field(usage, 'prompt_tokens')),
    outputTokens: tokenCount(field(usage, 'completion_tokens')),
    billed: chatBilled(usage),
  };
}

/** Collects the chunks of a streamed completion: the first choice's deltas, merged. */
class ChunkCollector implements AnswerCollector {
  #model: string | undefined;
  #text = '';
  /** Tool calls by their `index`: the name arrives once, the arguments in pieces. */
  readonly #calls: { id: string | undefined; name: string | undefined; arguments: string }[] = [];
  #inputTokens: number | undefined;
  #outputTokens: number | undefined;
  #usage: unknown;

  constructor(model: string | undefined) {
    this.#model = model;
  }

  add(chunk: unknown): void {
    const model = stringField(chunk, 'model');
    if (model !== undefined && model !== '') this.#model = model;
    const usage = field(chunk, 'usage');
    if (usage !== undefined && usage !== null) {
      this.#usage = usage;
      this.#inputTokens = tokenCount(field(usage, 'prompt_tokens')) ?? this.#inputTokens;
      this.#outputTokens = tokenCount(field(usage, 'completion_tokens')) ?? this.#outputTokens;
    }
    for (const choice of arrayField(chunk, 'choices')) {
      // Only the first choice (`n: 1`, the default) is recorded.
      if ((field(choice, 'index') ?? 0) !== 0) continue;
      const delta = field(choice, 'delta');
      const content = field(delta, 'content') ?? field(delta, 'refusal');
      if (typeof content === 'string') this.#text += content;
      for (const call of arrayField(delta, 'tool_calls')) {
        const index = field(call, 'index');
        const position = typeof index === 'number' ? index : this.#calls.length;
        const fn = field(call, 'function');
        const entry = (this.#calls[position] ??= { id: undefined, name: undefined, arguments: '' });
        entry.id ??= stringField(call, 'id');
        entry.name ??= stringField(fn, 'name');
        entry.arguments += stringField(fn, 'arguments') ?? '';
      }
    }
  }

  answer(): Answer {
    // Sparse when a call's index was skipped: only the calls that arrived.
    const calls = this.#calls.filter((call) => call !== undefined);
    return {
      model: this.#model,
      text: this.#text,
      toolCalls: calls.map((call) => toolCallText(call.name, call.arguments)),
      toolCallIds: calls.flatMap((call) => (call.id === undefined ? [] : [call.id])),
      inputTokens: this.#inputTokens,
      outputTokens: this.#outputTokens,
      billed: chatBilled(this.#usage),
    };
  }
}

/**
 * A chunk of a stream the caller did not ask usage for, as it would have come: with
 * `include_usage`, OpenAI adds `usage: null` to every chunk (taken out again) and ends
 * with a chunk of no choices that carries the usage (`false`: not passed on, since a
 * loop reading `chunk.choices[0].delta` would throw on it).
 */
function withoutUsage(chunk: unknown): boolean {
  if (typeof chunk !== 'object' || chunk === null || !('usage' in chunk)) return true;
  const { usage, choices } = chunk as { usage: unknown; choices?: unknown };
  if (usage === null) {
    delete (chunk as { usage?: unknown }).usage;
    return true;
  }
  return !(Array.isArray(choices) && choices.length === 0);
}

/** A streamed request that did not set `include_usage` itself, with it set; its usage is for the step only. */
function askingForUsage(args: unknown[]): PreparedCall {
  const [params, ...rest] = args;
  if (field(params, 'stream') !== true) return { args };
  const streamOptions = field(params, 'stream_options');
  if (field(streamOptions, 'include_usage') !== undefined) return { args };
  const asked = {
    ...(params as Record<string, unknown>),
    stream_options: { ...(streamOptions as Record<string, unknown> | undefined), include_usage: true },
  };
  return { args: [asked, ...rest], restore: withoutUsage };
}

/**
 * Observes `chat.completions.create`; with `includeUsage`, asks for usage on streams.
 * @example
 * ```ts
 * new Map([['chat.completions.create', chatCompletionsObserver(true)]]);
 * ```
 */
export function chatCompletionsObserver(includeUsage: boolean): MethodObserver {
  return llmCallObserver({
    request: chatRequest,
    answer: completionAnswer,
    collector: (model) => new ChunkCollector(model),
    ...(includeUsage ? { prepare: askingForUsage } : {}),
  });
}
