/**
 * A `@google/genai` request (`generateContent` and `generateContentStream` params) as
 * recorded messages: `config.systemInstruction` first, then `contents` in order, with
 * the roles folded onto the wire's four (`model` is the assistant, function responses
 * are tool messages). Read structurally: only the fields used here, each checked.
 */
import type { ReadRequest } from '../provider/step.js';
import { answerText, asString, fieldsOf, type StepMessage, toolCallText } from '../provider/text.js';
import { readableText } from '../readable.js';
import { ToolRunReader } from '../tool-runs.js';

// Read by name, not with `field()`: this runs on every call (see `fieldsOf`).

/** A media part as a placeholder naming its kind, from its MIME type: never its bytes. */
function mediaPlaceholder(media: unknown): string {
  const type = asString(fieldsOf(media)?.mimeType) ?? '';
  if (type.startsWith('image/')) return '[image]';
  if (type.startsWith('audio/')) return '[audio]';
  if (type.startsWith('video/')) return '[video]';
  return '[file]';
}

/**
 * The text of a part that is neither a function call nor a function response: its text
 * (thoughts left out), a placeholder for media, the code and its result of code execution.
 * @example
 * ```ts
 * geminiPartText({ inlineData: { mimeType: 'image/png', data } }); // '[image]'
 * ```
 */
export function geminiPartText(part: unknown): string {
  if (typeof part === 'string') return part;
  const fields = fieldsOf(part);
  if (fields === undefined) return '';
  const text = fields.text;
  if (typeof text === 'string') return fields.thought === true ? '' : text;
  const inline = fields.inlineData;
  if (inline !== undefined && inline !== null) return mediaPlaceholder(inline);
  const file = fields.fileData;
  if (file !== undefined && file !== null) return mediaPlaceholder(file);
  const code = fields.executableCode;
  if (code !== undefined && code !== null) return asString(fieldsOf(code)?.code) ?? '';
  const result = fields.codeExecutionResult;
  if (result !== undefined && result !== null) return asString(fieldsOf(result)?.output) ?? '';
  return '';
}

/**
 * The id a function call or response is matched by: its own when it has one, else its
 * name and its place among the parts of that name in its content (`get_order#0`): the
 * Gemini API gives calls no id, and answers them in order.
 * @example
 * ```ts
 * const ids = new FunctionIds();
 * ids.of({ name: 'get_order' }); // ['get_order#0']
 * ```
 */
export class FunctionIds {
  /** Made at the first function seen: most contents and answers have none. */
  #seen: Map<string, number> | undefined;

  /** The ids a call or response is known by: its own (when it has one), then by place. */
  of(fn: unknown): string[] {
    const fields = fieldsOf(fn);
    const name = asString(fields?.name) ?? '';
    this.#seen ??= new Map();
    const place = this.#seen.get(name) ?? 0;
    this.#seen.set(name, place + 1);
    const own = asString(fields?.id);
    const byPlace = `${name}#${place}`;
    return own === undefined || own === '' ? [byPlace] : [own, byPlace];
  }
}

function isContent(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ('parts' in value || 'role' in value);
}

/**
 * `contents` (a string, a part, a list of parts, a content or a list of contents) as a
 * list of contents, as the SDK sends it: parts alone are one user content.
 */
function contentList(contents: unknown): readonly unknown[] {
  if (!Array.isArray(contents)) return contents === undefined || contents === null ? [] : isContent(contents) ? [contents] : [{ role: 'user', parts: [contents] }];
  if (contents.length > 0 && contents.every(isContent)) return contents;
  return contents.length === 0 ? [] : [{ role: 'user', parts: contents }];
}

/** A content's parts: a string or a single part as a list of one. */
function partsOf(content: unknown): readonly unknown[] {
  const parts = fieldsOf(content)?.parts;
  if (Array.isArray(parts)) return parts;
  return parts === undefined || parts === null ? [] : [parts];
}

const NO_TOOL_CALLS: readonly string[] = [];

/**
 * One content as recorded messages, added to `messages`: each function response a `tool`
 * message; the other parts, as text, the message itself (`model` as `assistant`, with its
 * function calls). Its function calls and responses go to `tools`.
 */
function addStepMessages(content: unknown, tools: ToolRunReader, messages: StepMessage[]): void {
  const role = asString(fieldsOf(content)?.role);
  const assistant = role === 'model';
  // The texts joined by newlines as they come; the lists made only when there is something to list.
  let texts = '';
  let toolCalls: string[] | undefined;
  let toolResults = 0;
  let ids: FunctionIds | undefined;
  if (assistant) tools.message();
  for (const part of partsOf(content)) {
    const fields = fieldsOf(part);
    const call = fields?.functionCall;
    const response = fields?.functionResponse;
    if (call !== undefined && call !== null) {
      const callFields = fieldsOf(call);
      const name = asString(callFields?.name);
      const args = callFields?.args;
      (toolCalls ??= []).push(toolCallText(name, args ?? {}));
      for (const id of (ids ??= new FunctionIds()).of(call)) tools.call(id, { name, input: args ?? {} });
    } else if (response !== undefined && response !== null) {
      const output = readableText(fieldsOf(response)?.response ?? {});
      messages.push({ role: 'tool', content: output });
      toolResults += 1;
      tools.result((ids ??= new FunctionIds()).of(response)[0], output);
    } else {
      const text = geminiPartText(part);
      if (text !== '') texts = texts === '' ? text : `${texts}\n${text}`;
    }
  }
  const own = answerText(texts, toolCalls ?? NO_TOOL_CALLS);
  if (own === '' && toolResults > 0) return;
  if (!assistant) tools.message(); // words of the user after the results: a new message
  messages.push({ role: assistant ? 'assistant' : role === 'function' || role === 'tool' ? 'tool' : 'user', content: own });
}

/** `config.systemInstruction` (a string, a part, parts, or a content) as text. */
function systemText(instruction: unknown): string {
  if (instruction === undefined || instruction === null) return '';
  if (typeof instruction === 'string') return instruction;
  const parts = typeof instruction === 'object' && 'parts' in instruction ? partsOf(instruction) : Array.isArray(instruction) ? instruction : [instruction];
  let text = '';
  for (const part of parts) {
    const read = geminiPartText(part);
    if (read !== '') text = text === '' ? read : `${text}\n${read}`;
  }
  return text;
}

/**
 * The request as recorded messages (the system instruction first, then `contents` in
 * order) and the tool runs its contents end with.
 * @example
 * ```ts
 * geminiRequest({ model: 'gemini-2.5-flash', contents: 'Hi' }).messages; // [{ role: 'user', content: 'Hi' }]
 * ```
 */
export function geminiRequest(params: unknown): ReadRequest {
  const messages: StepMessage[] = [];
  const tools = new ToolRunReader();
  const fields = fieldsOf(params);
  const system = systemText(fieldsOf(fields?.config)?.systemInstruction);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const content of contentList(fields?.contents)) addStepMessages(content, tools, messages);
  return { messages, toolRuns: tools.runs() };
}
