/**
 * The AI SDK's messages as an LLM step's `messages`. Two shapes arrive here, read
 * structurally so that a neighbouring version of `ai` still works: the prompt a model
 * receives (`LanguageModelV3Prompt`, seen by the middleware) and the `ModelMessage`s of
 * the telemetry events. Both are `{ role, content }` with `content` a string or parts.
 * Texts read as the provider integrations read them (docs/integrations.md, "How messages and answers read").
 */
import { isObject, readableText } from '../readable.js';
import { contentText, partText, systemFirst, toolCallText, type StepMessage } from '../provider/text.js';
import { type ToolRun, ToolRunReader } from '../tool-runs.js';

const ROLES = new Set<string>(['system', 'user', 'assistant', 'tool']);

/**
 * The text of a tool result: the AI SDK's typed output (`{ type: 'text' | 'json' |
 * 'error-text' | 'error-json' | 'content' | 'execution-denied', value }`) read by its type,
 * anything else (a tool's raw return value) as JSON.
 *
 * @example
 * ```ts
 * toolOutputText({ type: 'json', value: { status: 'shipped' } }); // '{"status":"shipped"}'
 * ```
 */
export function toolOutputText(output: unknown): string {
  if (!isObject(output) || typeof output.type !== 'string') return readableText(output);
  switch (output.type) {
    case 'text':
    case 'error-text':
    case 'json':
    case 'error-json':
      return readableText(output.value);
    case 'content':
      return Array.isArray(output.value) ? aiContentText(output.value) : '';
    case 'execution-denied':
      return typeof output.reason === 'string' ? `execution denied: ${output.reason}` : 'execution denied';
    default:
      return readableText(output);
  }
}

/** A part's text: a tool call as `name(arguments)`, a tool result as its text, reasoning none, others as the providers read them. */
function aiPartText(part: Record<string, unknown>): string {
  switch (part.type) {
    case 'tool-call':
      return toolCallText(typeof part.toolName === 'string' ? part.toolName : undefined, part.input);
    case 'tool-result':
      return toolOutputText(part.output);
    case 'reasoning':
      return ''; // left out, as the provider integrations leave thinking out
    default:
      return partText(part);
  }
}

/** The text of a message's content: a string as is, parts' texts joined by a new line. */
function aiContentText(content: unknown): string {
  return contentText(content, '\n', (part) => (isObject(part) ? aiPartText(part) : ''));
}

/** The parts of a message's content (none when it is a string). */
function partsOf(message: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(message.content) ? (message.content as unknown[]).filter(isObject) : [];
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The messages as recorded (system first; a message of an unknown role left out; each
 * tool result a `tool` message of its own, as the provider received them), and the
 * tool results they end with, matched by `toolCallId` to the calls that asked for them.
 *
 * @example
 * ```ts
 * promptRequest([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]).messages; // [{ role: 'user', content: 'Hi' }]
 * ```
 */
export function promptRequest(messages: readonly unknown[]): { messages: StepMessage[]; toolRuns: ToolRun[] } {
  const recorded: StepMessage[] = [];
  const tools = new ToolRunReader();
  for (const message of messages) {
    if (!isObject(message) || typeof message.role !== 'string' || !ROLES.has(message.role)) continue;
    const results = message.role === 'tool' ? partsOf(message).filter((part) => part.type === 'tool-result') : [];
    if (results.length === 0) {
      recorded.push({ role: message.role as StepMessage['role'], content: aiContentText(message.content) });
      tools.message();
    }
    for (const part of results) {
      const output = toolOutputText(part.output);
      recorded.push({ role: 'tool', content: output });
      tools.result(textOf(part.toolCallId), output);
    }
    if (message.role !== 'assistant') continue;
    for (const part of partsOf(message)) {
      if (part.type === 'tool-call') tools.call(textOf(part.toolCallId), { name: textOf(part.toolName), input: part.input });
    }
  }
  return { messages: systemFirst(recorded), toolRuns: tools.runs() };
}

/**
 * The messages as recorded: see {@link promptRequest}.
 *
 * @example
 * ```ts
 * stepMessages([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]); // [{ role: 'user', content: 'Hi' }]
 * ```
 */
export function stepMessages(messages: readonly unknown[]): StepMessage[] {
  return promptRequest(messages).messages;
}

/**
 * The telemetry events' prompt as recorded: `system` (a string, a system message or
 * several) first, then the messages; and the tool results it ends with.
 *
 * @example
 * ```ts
 * eventRequest(event.system, event.messages).messages; // onStepStart
 * ```
 */
export function eventRequest(system: unknown, messages: unknown): { messages: StepMessage[]; toolRuns: ToolRun[] } {
  const systems: unknown[] =
    system === undefined || system === null
      ? []
      : typeof system === 'string'
        ? [{ role: 'system', content: system }]
        : Array.isArray(system)
          ? system
          : [system];
  return promptRequest([...systems, ...(Array.isArray(messages) ? messages : [])]);
}

/**
 * The words of the last user message, its text parts only: how the middleware and the
 * telemetry integration tell calls apart (handoff.ts). Files and images read differently
 * in the two shapes (an image part in a `ModelMessage` is a file part in the model's
 * prompt); the words are the same.
 *
 * @example
 * ```ts
 * lastUserWords([{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', image: url }] }]); // 'What is this?'
 * ```
 */
export function lastUserWords(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message: unknown = messages[index];
    if (!isObject(message) || message.role !== 'user') continue;
    const { content } = message;
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return undefined;
    return (content as unknown[])
      .filter((part): part is { text: string } => isObject(part) && part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text)
      .join('\n');
  }
  return undefined;
}
