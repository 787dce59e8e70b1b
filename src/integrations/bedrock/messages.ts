/**
 * A Bedrock `Converse` / `ConverseStream` request (the command's input) as recorded
 * messages: `system` first, then `messages` in order; tool results (in a user message)
 * are tool messages. Read structurally: only the fields used here, each checked.
 */
import type { ReadRequest } from '../provider/step.js';
import { answerText, asString, fieldsOf, type StepMessage, toolCallText } from '../provider/text.js';
import { readableText } from '../readable.js';
import { ToolRunReader } from '../tool-runs.js';

// Read by name, not with `field()`: this runs on every call (see `fieldsOf`).

/** Blocks that carry media, by their member name: a placeholder, never their bytes. */
const MEDIA: readonly (readonly [string, string])[] = Object.entries({ image: '[image]', document: '[document]', video: '[video]', audio: '[audio]' });

/**
 * The text of a content block that is neither a tool use nor a tool result (nor a tool
 * result's own content): its text, a guarded text, JSON, a placeholder for media; `''`
 * for what carries nothing to read (reasoning, cache points).
 * @example
 * ```ts
 * blockText({ image: { format: 'png', source: { bytes } } }); // '[image]'
 * ```
 */
export function blockText(block: unknown): string {
  const fields = fieldsOf(block);
  if (fields === undefined) return '';
  const text = fields.text;
  if (typeof text === 'string') return text;
  const guarded = asString(fieldsOf(fieldsOf(fields.guardContent)?.text)?.text);
  if (guarded !== undefined) return guarded;
  const json = fields.json;
  if (json !== undefined) return readableText(json);
  for (const [member, placeholder] of MEDIA) if (member in fields) return placeholder;
  return '';
}

const NO_BLOCKS: readonly unknown[] = [];

/** An array, or none. */
function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : NO_BLOCKS;
}

/** A list of blocks as one text, each block's text on its own line. */
function blocksText(blocks: readonly unknown[]): string {
  let text = '';
  for (const block of blocks) {
    const read = blockText(block);
    if (read !== '') text = text === '' ? read : `${text}\n${read}`;
  }
  return text;
}

const NO_TOOL_CALLS: readonly string[] = [];

/**
 * One request message as recorded messages, added to `messages`: each tool result a
 * `tool` message; the rest of its blocks, as text, the message itself (an assistant's with
 * its tool uses). Its tool uses and results go to `tools`.
 */
function addStepMessages(message: unknown, tools: ToolRunReader, messages: StepMessage[]): void {
  const fields = fieldsOf(message);
  const role = fields?.role === 'assistant' ? 'assistant' : 'user';
  // The texts joined by newlines as they come; the list made only when there is something to list.
  let texts = '';
  let toolCalls: string[] | undefined;
  let toolResults = 0;
  if (role === 'assistant') tools.message();
  for (const block of listOf(fields?.content)) {
    const blockFields = fieldsOf(block);
    const use = blockFields?.toolUse;
    const result = blockFields?.toolResult;
    if (use !== undefined && use !== null) {
      const useFields = fieldsOf(use);
      const name = asString(useFields?.name);
      (toolCalls ??= []).push(toolCallText(name, useFields?.input));
      tools.call(asString(useFields?.toolUseId), { name, input: useFields?.input });
    } else if (result !== undefined && result !== null) {
      const resultFields = fieldsOf(result);
      const output = blocksText(listOf(resultFields?.content));
      messages.push({ role: 'tool', content: output });
      toolResults += 1;
      tools.result(asString(resultFields?.toolUseId), output);
    } else {
      const text = blockText(block);
      if (text !== '') texts = texts === '' ? text : `${texts}\n${text}`;
    }
  }
  const own = answerText(texts, toolCalls ?? NO_TOOL_CALLS);
  if (own === '' && toolResults > 0) return;
  if (role === 'user') tools.message(); // words of the user after the results: a new message
  messages.push({ role, content: own });
}

/**
 * The request as recorded messages (`system` first, then `messages` in order) and the
 * tool runs its messages end with.
 * @example
 * ```ts
 * converseRequest({ modelId, messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }).messages; // [{ role: 'user', content: 'Hi' }]
 * ```
 */
export function converseRequest(input: unknown): ReadRequest {
  const messages: StepMessage[] = [];
  const tools = new ToolRunReader();
  const fields = fieldsOf(input);
  const system = blocksText(listOf(fields?.system));
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of listOf(fields?.messages)) addStepMessages(message, tools, messages);
  return { messages, toolRuns: tools.runs() };
}
