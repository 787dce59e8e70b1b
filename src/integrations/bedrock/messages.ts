/**
 * A Bedrock `Converse` / `ConverseStream` request (the command's input) as recorded
 * messages: `system` first, then `messages` in order; tool results (in a user message)
 * are tool messages. Read structurally: only the fields used here, each checked.
 */
import type { ReadRequest } from '../provider/step.js';
import { answerText, arrayField, field, type StepMessage, stringField, toolCallText } from '../provider/text.js';
import { readableText } from '../readable.js';
import { ToolRunReader } from '../tool-runs.js';

/** Blocks that carry media, by their member name: a placeholder, never their bytes. */
const MEDIA: Readonly<Record<string, string>> = { image: '[image]', document: '[document]', video: '[video]', audio: '[audio]' };

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
  const text = stringField(block, 'text');
  if (text !== undefined) return text;
  const guarded = stringField(field(field(block, 'guardContent'), 'text'), 'text');
  if (guarded !== undefined) return guarded;
  const json = field(block, 'json');
  if (json !== undefined) return readableText(json);
  if (typeof block === 'object' && block !== null) {
    for (const [member, placeholder] of Object.entries(MEDIA)) if (member in block) return placeholder;
  }
  return '';
}

/** A list of blocks as one text, each block's text on its own line. */
function blocksText(blocks: readonly unknown[]): string {
  return blocks
    .map(blockText)
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * One request message as recorded messages: each tool result a `tool` message; the rest
 * of its blocks, as text, the message itself (an assistant's with its tool uses).
 * Its tool uses and results go to `tools`.
 */
function stepMessages(message: unknown, tools: ToolRunReader): StepMessage[] {
  const role = stringField(message, 'role') === 'assistant' ? 'assistant' : 'user';
  const texts: string[] = [];
  const toolCalls: string[] = [];
  const toolResults: StepMessage[] = [];
  if (role === 'assistant') tools.message();
  for (const block of arrayField(message, 'content')) {
    const use = field(block, 'toolUse');
    const result = field(block, 'toolResult');
    if (use !== undefined && use !== null) {
      toolCalls.push(toolCallText(stringField(use, 'name'), field(use, 'input')));
      tools.call(stringField(use, 'toolUseId'), { name: stringField(use, 'name'), input: field(use, 'input') });
    } else if (result !== undefined && result !== null) {
      const output = blocksText(arrayField(result, 'content'));
      toolResults.push({ role: 'tool', content: output });
      tools.result(stringField(result, 'toolUseId'), output);
    } else {
      const text = blockText(block);
      if (text !== '') texts.push(text);
    }
  }
  const own = answerText(texts.join('\n'), toolCalls);
  if (own === '' && toolResults.length > 0) return toolResults;
  if (role === 'user') tools.message(); // words of the user after the results: a new message
  return [...toolResults, { role, content: own }];
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
  const system = blocksText(arrayField(input, 'system'));
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of arrayField(input, 'messages')) messages.push(...stepMessages(message, tools));
  return { messages, toolRuns: tools.runs() };
}
