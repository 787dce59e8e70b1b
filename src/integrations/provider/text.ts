/**
 * The text forms shared by the provider mappings (docs/integrations.md, "How messages and answers read"): how a
 * content part, a tool call and an unfinished answer read in a recorded step.
 */
import type { Ending } from './recording.js';

/**
 * A message as recorded in an LLM step.
 * @example
 * ```ts
 * const message: StepMessage = { role: 'tool', content: 'order 7: shipped' };
 * ```
 */
export interface StepMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
}

/**
 * Reads a field of a value that may be anything (a getter may still throw).
 * @example
 * ```ts
 * field(null, 'usage'); // undefined
 * ```
 */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/**
 * The fields of a value that may be anything, to read by name (`fieldsOf(usage)?.inputTokens`):
 * the value itself when it is an object, else `undefined` (a getter may still throw). On
 * the paths run for every call, prefer it to {@link field}: a read written out by name
 * keeps an inline cache of its own, while `field`'s one read by key serves every caller and
 * every shape, and V8 answers it with its slowest lookup.
 * @example
 * ```ts
 * fieldsOf(response)?.usage; // undefined for null, a string, a number
 * ```
 */
export function fieldsOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/**
 * A string, or `undefined`: for a field read with {@link fieldsOf}.
 * @example
 * ```ts
 * asString(fieldsOf(params)?.model); // 'gpt-4o'
 * ```
 */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A string field, or `undefined`.
 * @example
 * ```ts
 * stringField({ model: 'gpt-4o' }, 'model'); // 'gpt-4o'
 * ```
 */
export function stringField(value: unknown, name: string): string | undefined {
  const found = field(value, name);
  return typeof found === 'string' ? found : undefined;
}

/**
 * A token count the wire takes: a non-negative integer, or `undefined`.
 * @example
 * ```ts
 * tokenCount(-1); // undefined
 * ```
 */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * An array field, or `[]`.
 * @example
 * ```ts
 * arrayField({ choices: null }, 'choices'); // []
 * ```
 */
export function arrayField(value: unknown, name: string): readonly unknown[] {
  const found = field(value, name);
  return Array.isArray(found) ? found : [];
}

// Parts that are not text read as a short placeholder, so that a step shows that an image
// (or a file, or audio) was there without its bytes.
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  image_url: '[image]',
  input_image: '[image]',
  image: '[image]',
  input_audio: '[audio]',
  file: '[file]',
  input_file: '[file]',
  document: '[document]',
};

/**
 * The text of one content part: its `text` (or `refusal`), else a placeholder naming its
 * type (`[image]`, `[file]`, `[audio]`, `[document]`, `[<type>]`); `''` for parts that
 * carry nothing to read (reasoning).
 * @example
 * ```ts
 * partText({ type: 'image_url', image_url: { url } }); // '[image]'
 * ```
 */
export function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  const text = stringField(part, 'text') ?? stringField(part, 'refusal');
  if (text !== undefined) return text;
  const type = stringField(part, 'type');
  if (type === undefined || type === 'thinking' || type === 'redacted_thinking' || type === 'reasoning') return '';
  return PLACEHOLDERS[type] ?? `[${type}]`;
}

/**
 * Message content as one string: a string as it is, parts' texts joined by newlines;
 * `readPart` reads a framework's own parts (the AI SDK's tool calls and results).
 * @example
 * ```ts
 * contentText([{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url } }]); // 'What is this?\n[image]'
 * ```
 */
export function contentText(content: unknown, separator = '\n', readPart: (part: unknown) => string = partText): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    const text = readPart(part);
    if (text !== '') texts.push(text);
  }
  return texts.join(separator);
}

/**
 * A tool call as text: `name(arguments)`, the arguments as the model wrote them (JSON).
 * @example
 * ```ts
 * toolCallText('get_order', '{"id":7}'); // 'get_order({"id":7})'
 * ```
 */
export function toolCallText(name: string | undefined, args: unknown): string {
  const written = typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args);
  return `${name ?? 'tool'}(${written})`;
}

/**
 * An assistant turn as text: its text, then one line per tool call.
 * @example
 * ```ts
 * answerText('Let me look.', ['get_order({"id":7})']); // 'Let me look.\nget_order({"id":7})'
 * ```
 */
export function answerText(text: string, toolCalls: readonly string[]): string {
  if (toolCalls.length === 0) return text;
  return text === '' ? toolCalls.join('\n') : `${text}\n${toolCalls.join('\n')}`;
}

/**
 * System messages first, each group in request order.
 * @example
 * ```ts
 * systemFirst([user, system]); // [system, user]
 * ```
 */
export function systemFirst(messages: StepMessage[]): StepMessage[] {
  const system = messages.filter((message) => message.role === 'system');
  if (system.length === 0 || system.length === messages.length) return messages;
  return [...system, ...messages.filter((message) => message.role !== 'system')];
}

/**
 * The text of the last user message that has any: the interaction's input.
 * @example
 * ```ts
 * lastUserText([{ role: 'user', content: 'Hi' }, { role: 'tool', content: '42' }]); // 'Hi'
 * ```
 */
export function lastUserText(messages: readonly StepMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user' && message.content !== '') return message.content;
  }
  return undefined;
}

/** The name of an error as shown in a mark: its status and class (`429 RateLimitError`). */
function errorName(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const name = error.name !== 'Error' ? error.name : error.constructor.name;
  const status = field(error, 'status');
  return typeof status === 'number' ? `${status} ${name}` : name;
}

/**
 * The output of an answer that did not finish, marked so that it is never mistaken for a
 * whole one: the partial text, then a line `[nebuly: stream aborted, output incomplete]`,
 * `[nebuly: stream failed (<error>), output incomplete]` or `[nebuly: call failed (<error>)]`.
 * The error's message is left out: it may quote the request.
 * @example
 * ```ts
 * markedOutput('Order 7 ship', { kind: 'aborted' }); // 'Order 7 ship\n[nebuly: stream aborted, output incomplete]'
 * ```
 */
export function markedOutput(text: string, ending: Ending | { kind: 'call-failed'; error: unknown }): string {
  let mark: string;
  switch (ending.kind) {
    case 'complete':
      return text;
    case 'aborted':
      mark = '[nebuly: stream aborted, output incomplete]';
      break;
    case 'failed':
      mark = `[nebuly: stream failed (${errorName(ending.error)}), output incomplete]`;
      break;
    case 'call-failed':
      mark = `[nebuly: call failed (${errorName(ending.error)})]`;
      break;
  }
  return text === '' ? mark : `${text}\n${mark}`;
}
