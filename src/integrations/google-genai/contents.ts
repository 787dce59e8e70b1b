/**
 * A `@google/genai` request (`generateContent` and `generateContentStream` params) as
 * recorded messages: `config.systemInstruction` first, then `contents` in order, with
 * the roles folded onto the wire's four (`model` is the assistant, function responses
 * are tool messages). Read structurally: only the fields used here, each checked.
 */
import type { ReadRequest } from '../provider/step.js';
import { answerText, field, type StepMessage, stringField, toolCallText } from '../provider/text.js';
import { readableText } from '../readable.js';
import { ToolRunReader } from '../tool-runs.js';

/** A media part as a placeholder naming its kind, from its MIME type: never its bytes. */
function mediaPlaceholder(media: unknown): string {
  const type = stringField(media, 'mimeType') ?? '';
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
  const text = stringField(part, 'text');
  if (text !== undefined) return field(part, 'thought') === true ? '' : text;
  const inline = field(part, 'inlineData');
  if (inline !== undefined && inline !== null) return mediaPlaceholder(inline);
  const file = field(part, 'fileData');
  if (file !== undefined && file !== null) return mediaPlaceholder(file);
  const code = field(part, 'executableCode');
  if (code !== undefined && code !== null) return stringField(code, 'code') ?? '';
  const result = field(part, 'codeExecutionResult');
  if (result !== undefined && result !== null) return stringField(result, 'output') ?? '';
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
  readonly #seen = new Map<string, number>();

  /** The ids a call or response is known by: its own (when it has one), then by place. */
  of(fn: unknown): string[] {
    const name = stringField(fn, 'name') ?? '';
    const place = this.#seen.get(name) ?? 0;
    this.#seen.set(name, place + 1);
    const own = stringField(fn, 'id');
    const byPlace = `${name}#${place}`;
    return own === undefined || own === '' ? [byPlace] : [own, byPlace];
  }
}

/**
 * `contents` (a string, a part, a list of parts, a content or a list of contents) as a
 * list of contents, as the SDK sends it: parts alone are one user content.
 */
function contentList(contents: unknown): unknown[] {
  const isContent = (value: unknown) => typeof value === 'object' && value !== null && ('parts' in value || 'role' in value);
  if (!Array.isArray(contents)) return contents === undefined || contents === null ? [] : isContent(contents) ? [contents] : [{ role: 'user', parts: [contents] }];
  if (contents.length > 0 && contents.every(isContent)) return contents;
  return contents.length === 0 ? [] : [{ role: 'user', parts: contents }];
}

/** A content's parts: a string or a single part as a list of one. */
function partsOf(content: unknown): readonly unknown[] {
  const parts = field(content, 'parts');
  if (Array.isArray(parts)) return parts;
  return parts === undefined || parts === null ? [] : [parts];
}

/**
 * One content as recorded messages: each function response a `tool` message; the other
 * parts, as text, the message itself (`model` as `assistant`, with its function calls).
 * Its function calls and responses go to `tools`.
 */
function stepMessages(content: unknown, tools: ToolRunReader): StepMessage[] {
  const role = stringField(content, 'role');
  const assistant = role === 'model';
  const texts: string[] = [];
  const toolCalls: string[] = [];
  const toolResults: StepMessage[] = [];
  const ids = new FunctionIds();
  if (assistant) tools.message();
  for (const part of partsOf(content)) {
    const call = field(part, 'functionCall');
    const response = field(part, 'functionResponse');
    if (call !== undefined && call !== null) {
      const args = field(call, 'args');
      toolCalls.push(toolCallText(stringField(call, 'name'), args ?? {}));
      for (const id of ids.of(call)) tools.call(id, { name: stringField(call, 'name'), input: args ?? {} });
    } else if (response !== undefined && response !== null) {
      const output = readableText(field(response, 'response') ?? {});
      toolResults.push({ role: 'tool', content: output });
      tools.result(ids.of(response)[0], output);
    } else {
      const text = geminiPartText(part);
      if (text !== '') texts.push(text);
    }
  }
  const own = answerText(texts.join('\n'), toolCalls);
  if (own === '' && toolResults.length > 0) return toolResults;
  if (!assistant) tools.message(); // words of the user after the results: a new message
  return [...toolResults, { role: assistant ? 'assistant' : role === 'function' || role === 'tool' ? 'tool' : 'user', content: own }];
}

/** `config.systemInstruction` (a string, a part, parts, or a content) as text. */
function systemText(instruction: unknown): string {
  if (instruction === undefined || instruction === null) return '';
  const parts = typeof instruction === 'object' && 'parts' in instruction ? partsOf(instruction) : Array.isArray(instruction) ? instruction : [instruction];
  return parts
    .map(geminiPartText)
    .filter((text) => text !== '')
    .join('\n');
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
  const system = systemText(field(field(params, 'config'), 'systemInstruction'));
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const content of contentList(field(params, 'contents'))) messages.push(...stepMessages(content, tools));
  return { messages, toolRuns: tools.runs() };
}
