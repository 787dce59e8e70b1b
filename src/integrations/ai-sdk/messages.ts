/**
 * The AI SDK's messages as an LLM step's `messages`. Two shapes arrive here, read
 * structurally so that a neighbouring version of `ai` still works: the prompt a model
 * receives (`LanguageModelV3Prompt`, seen by the middleware) and the `ModelMessage`s of
 * the telemetry events. Both are `{ role, content }` with `content` a string or parts.
 */
import { readableText, toolCallText, type StepMessage } from '../readable.js';

export { lastUserText, type StepMessage } from '../readable.js';

/** One content part, as far as it is read here. */
interface Part {
  readonly type?: unknown;
  readonly text?: unknown;
  readonly toolName?: unknown;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly reason?: unknown;
}

/** A message of either shape. */
export interface AnyMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The text of a tool result: the AI SDK's typed output (`{ type: 'text' | 'json' |
 * 'error-text' | 'error-json' | 'content' | 'execution-denied', value }`) read by its type,
 * anything else (a tool's raw return value) as JSON.
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
      return Array.isArray(output.value)
        ? output.value
            .filter((part: unknown): part is { text: string } => isObject(part) && typeof part.text === 'string')
            .map((part) => part.text)
            .join('\n')
        : '';
    case 'execution-denied':
      return typeof output.reason === 'string' ? `execution denied: ${output.reason}` : 'execution denied';
    default:
      return readableText(output);
  }
}

/** A part's text: text as is, a tool call as `name(arguments)`, a tool result as its text; others (files, reasoning) none. */
function partText(part: Part): string | undefined {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : undefined;
    case 'tool-call':
      return toolCallText(String(part.toolName), part.input);
    case 'tool-result':
      return toolOutputText(part.output);
    default:
      return undefined;
  }
}

/** The text of a message's content: a string as is, parts' texts joined by a new line. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content as unknown[]) {
    if (!isObject(part)) continue;
    const text = partText(part);
    if (text !== undefined) texts.push(text);
  }
  return texts.join('\n');
}

/** The messages as recorded: role kept, content as text; messages of an unknown role are left out. */
export function stepMessages(messages: readonly unknown[]): StepMessage[] {
  const recorded: StepMessage[] = [];
  for (const message of messages) {
    if (!isObject(message) || typeof message.role !== 'string' || !ROLES.has(message.role)) continue;
    recorded.push({ role: message.role as StepMessage['role'], content: contentText(message.content) });
  }
  return recorded;
}

/**
 * The telemetry events' prompt as recorded: `system` (a string, a system message or
 * several) first, then the messages.
 */
export function eventMessages(system: unknown, messages: unknown): StepMessage[] {
  const systems: unknown[] =
    system === undefined || system === null
      ? []
      : typeof system === 'string'
        ? [{ role: 'system', content: system }]
        : Array.isArray(system)
          ? system
          : [system];
  return stepMessages([...systems, ...(Array.isArray(messages) ? messages : [])]);
}

/** A tool call as far as it is read here, from a generate result or a stream. */
export interface SeenToolCall {
  readonly toolName: string;
  readonly input: unknown;
}

/**
 * An LLM step's output: the answer's text, or, when the model only called tools, the
 * calls as readable lines (`name(arguments)`, one a line).
 */
export function answerText(text: string, toolCalls: readonly SeenToolCall[]): string {
  if (text !== '' || toolCalls.length === 0) return text;
  return toolCalls.map((call) => toolCallText(call.toolName, call.input)).join('\n');
}
