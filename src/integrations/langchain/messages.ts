/**
 * LangChain's values as the texts and messages of Nebuly steps, read structurally (a
 * message is what has a `type` or `_getType()` and a `content`), so that a neighbouring
 * version of `@langchain/core` still works.
 */
import { answerText, contentText, partText, systemFirst, toolCallText, type StepMessage } from '../provider/text.js';
import { isObject, readableText } from '../readable.js';
import { type ToolRun, ToolRunReader } from '../tool-runs.js';

type Role = StepMessage['role'];

// LangChain's message types and OpenAI-style roles (dict messages, `['human', 'Hi']` tuples).
const ROLES: Record<string, Role> = {
  human: 'user',
  user: 'user',
  ai: 'assistant',
  assistant: 'assistant',
  system: 'system',
  developer: 'system',
  tool: 'tool',
  function: 'tool',
};

/** A message's role, or undefined when the value is no message. */
function roleOf(message: unknown): Role | undefined {
  if (Array.isArray(message) && message.length === 2 && typeof message[0] === 'string') return ROLES[message[0]];
  if (!isObject(message) || !('content' in message)) return undefined;
  let type: unknown = message.type ?? message.role;
  if (typeof type !== 'string' && typeof message._getType === 'function') type = (message._getType as () => unknown)();
  if (type === 'generic' || type === 'chat') type = message.role;
  return typeof type === 'string' ? ROLES[type] : undefined;
}

interface ToolCallLike {
  readonly id?: unknown;
  readonly name?: unknown;
  readonly args?: unknown;
}

// Content blocks that repeat a message's tool calls (ChatAnthropic's `tool_use` and its
// streamed `input_json_delta`, and the like): the calls are read from `tool_calls`.
const TOOL_CALL_BLOCKS = new Set(['tool_use', 'server_tool_use', 'input_json_delta', 'tool_call', 'tool_call_chunk', 'function_call']);

/**
 * A message's content as text: its parts as the providers read them, tool-call blocks left out.
 *
 * @example
 * ```ts
 * contentOf([{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_order', input: {} }]); // 'Let me look.'
 * ```
 */
export function contentOf(content: unknown): string {
  return contentText(content, '\n', (part) => (isObject(part) && TOOL_CALL_BLOCKS.has(part.type as string) ? '' : partText(part)));
}

/** The tool calls an AI message asked for. */
function toolCallsOf(message: Record<string, unknown>): ToolCallLike[] {
  return Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]).filter(isObject) : [];
}

/**
 * The tool calls of an AI message, as `name(arguments)` texts.
 *
 * @example
 * ```ts
 * toolCallTexts(new AIMessage({ content: '', tool_calls: [{ name: 'get_order', args: { id: 7 } }] })); // ['get_order({"id":7})']
 * ```
 */
export function toolCallTexts(message: unknown): string[] {
  if (!isObject(message) || Array.isArray(message)) return [];
  return toolCallsOf(message).map((call) => toolCallText(typeof call.name === 'string' ? call.name : undefined, call.args));
}

/**
 * The ids of an AI message's tool calls.
 *
 * @example
 * ```ts
 * toolCallIds(new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'get_order', args: {} }] })); // ['call_1']
 * ```
 */
export function toolCallIds(message: unknown): string[] {
  if (!isObject(message) || Array.isArray(message)) return [];
  return toolCallsOf(message).flatMap((call) => (typeof call.id === 'string' ? [call.id] : []));
}

/** A message's text: its content's text (parts as the providers read them), then its tool calls, one a line. */
function messageText(message: unknown): string {
  const content = Array.isArray(message) ? message[1] : isObject(message) ? message.content : undefined;
  return answerText(contentOf(content), toolCallTexts(message));
}

/**
 * The tool results a model run's messages end with (`ToolMessage`s), each with the call
 * that asked for it (by `tool_call_id`).
 *
 * @example
 * ```ts
 * toolRunsOf([human, new AIMessage({ content: '', tool_calls: [call] }), new ToolMessage({ content: 'shipped', tool_call_id: call.id })]);
 * ```
 */
export function toolRunsOf(messages: readonly unknown[]): ToolRun[] {
  const tools = new ToolRunReader();
  for (const message of messages) {
    const role = roleOf(message);
    if (role === 'tool' && isObject(message) && !Array.isArray(message)) {
      tools.result(typeof message.tool_call_id === 'string' ? message.tool_call_id : undefined, messageText(message));
      continue;
    }
    tools.message();
    if (role !== 'assistant' || !isObject(message) || Array.isArray(message)) continue;
    for (const call of toolCallsOf(message)) {
      tools.call(typeof call.id === 'string' ? call.id : undefined, { name: typeof call.name === 'string' ? call.name : undefined, input: call.args });
    }
  }
  return tools.runs();
}

/**
 * The messages as recorded, system first; values that are no message are left out.
 *
 * @example
 * ```ts
 * stepMessages([new HumanMessage('Hi'), new SystemMessage('Be brief.')]);
 * // [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]
 * ```
 */
export function stepMessages(messages: readonly unknown[]): StepMessage[] {
  const recorded: StepMessage[] = [];
  for (const message of messages) {
    const role = roleOf(message);
    if (role !== undefined) recorded.push({ role, content: messageText(message) });
  }
  return systemFirst(recorded);
}

/** The text of the last message of `role` in a list, if any. */
function lastText(messages: readonly unknown[], role: Role): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (roleOf(messages[index]) === role) return messageText(messages[index]);
  }
  return undefined;
}

// The keys chains and agents commonly carry the user's input and the answer under.
const INPUT_KEYS = ['input', 'question', 'query', 'messages', 'prompt'];
const OUTPUT_KEYS = ['output', 'answer', 'text', 'content', 'messages', 'result'];

/** A run's value as text: a string, a message, or a list of messages' last of `role`. */
function textOf(value: unknown, role: Role, keys: readonly string[], depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return roleOf(value) === undefined ? lastText(value, role) : messageText(value);
  if (!isObject(value)) return undefined;
  if (roleOf(value) !== undefined) return messageText(value);
  if (depth > 0) return undefined;
  for (const key of keys) {
    if (key in value) {
      const text = textOf(value[key], role, keys, depth + 1);
      if (text !== undefined) return text;
    }
  }
  const entries = Object.values(value);
  return entries.length === 1 ? textOf(entries[0], role, keys, depth + 1) : undefined;
}

/**
 * The user's input in a run's input: a string; a message or the last user message of a
 * list; under `input`, `question`, `query`, `messages` or `prompt`, or the only key.
 *
 * @example
 * ```ts
 * inputText({ messages: [new HumanMessage('Where is my order?')] }); // 'Where is my order?'
 * ```
 */
export function inputText(value: unknown): string | undefined {
  return textOf(value, 'user', INPUT_KEYS);
}

/**
 * The answer in a run's output: a string; a message or the last AI message of a list;
 * under `output`, `answer`, `text`, `content`, `messages` or `result`, or the only key.
 *
 * @example
 * ```ts
 * outputText({ output: 'It shipped on Monday.' }); // 'It shipped on Monday.'
 * ```
 */
export function outputText(value: unknown): string | undefined {
  return textOf(value, 'assistant', OUTPUT_KEYS);
}

/**
 * What a tool returned, as text: a message's content, a string, anything else as JSON.
 *
 * @example
 * ```ts
 * toolResultText(new ToolMessage({ content: 'shipped', tool_call_id: 'call-1' })); // 'shipped'
 * ```
 */
export function toolResultText(output: unknown): string {
  return isObject(output) && roleOf(output) !== undefined ? messageText(output) : readableText(output);
}
