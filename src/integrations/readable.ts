/**
 * Framework values as the texts Nebuly steps carry: step fields are strings, while
 * frameworks hand over tool arguments, tool results and documents of any shape.
 */
import type { LLMStepInput } from '../schemas/index.js';

/** A message of an LLM step, as Nebuly records it. */
export type StepMessage = LLMStepInput['messages'][number];

/**
 * The text of the last user message: the input of an interaction that is one model call.
 *
 * @example
 * ```ts
 * lastUserText([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]); // 'Hi'
 * ```
 */
export function lastUserText(messages: readonly StepMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user') return typeof message.content === 'string' ? message.content : undefined;
  }
  return undefined;
}

/**
 * A value as text: a string as it is, anything else as JSON, and what JSON cannot write
 * (a cycle, a BigInt, `undefined`) through `String()`.
 *
 * @example
 * ```ts
 * readableText({ city: 'Paris' }); // '{"city":"Paris"}'
 * ```
 */
export function readableText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // A cycle or a BigInt: String() below still says something.
  }
  return String(value);
}

/**
 * A tool call as one readable line, `name(arguments)`: the LLM step's output when the
 * model answered with tool calls only. Arguments already given as a JSON text stay as
 * they are.
 *
 * @example
 * ```ts
 * toolCallText('get_weather', { city: 'Paris' }); // 'get_weather({"city":"Paris"})'
 * ```
 */
export function toolCallText(name: string, args: unknown): string {
  return `${name}(${readableText(args ?? {})})`;
}

/**
 * The output of a model call that stopped before its end (a stream cancelled or failed):
 * what arrived, then why it is incomplete, so that the step never passes for a whole answer.
 *
 * @example
 * ```ts
 * incompleteText('The order left on', 'the stream was cancelled');
 * // 'The order left on [incomplete: the stream was cancelled]'
 * ```
 */
export function incompleteText(text: string, why: string): string {
  return `${text}${text === '' || /\s$/.test(text) ? '' : ' '}[incomplete: ${why}]`;
}
