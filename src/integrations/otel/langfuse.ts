/**
 * Langfuse's OpenTelemetry attributes (`@langfuse/tracing`, `@langfuse/otel`; names as
 * `LangfuseOtelSpanAttributes` of `@langfuse/core` 5 defines them): what an observation is
 * (`langfuse.observation.type`), its model, input, output and usage, and its trace's input
 * and output. End user and conversation are `user.id` and `session.id`, which the
 * processor already reads.
 */
import { stepMessages } from '../ai-sdk/messages.js';
import { answerText, lastUserText, type StepMessage, toolCallText } from '../provider/text.js';
import { isObject, readableText } from '../readable.js';
import { type Attributes, json, text } from './span.js';

/** The attributes read here. */
export const LANGFUSE = {
  type: 'langfuse.observation.type',
  model: 'langfuse.observation.model.name',
  input: 'langfuse.observation.input',
  output: 'langfuse.observation.output',
  usage: 'langfuse.observation.usage_details',
  traceInput: 'langfuse.trace.input',
  traceOutput: 'langfuse.trace.output',
} as const;

/**
 * Whether a span is a generic Langfuse `span` observation: an interaction only when a
 * model call was made in it.
 * @example
 * ```ts
 * isLangfuseSpan(span.attributes); // true for startActiveObservation('handle-request', …)
 * ```
 */
export function isLangfuseSpan(attributes: Attributes): boolean {
  return text(attributes, LANGFUSE.type) === 'span';
}

/** A Langfuse input or output value, parsed when it is JSON (`@langfuse/tracing` serializes objects). */
function valueOf(attributes: Attributes, key: string): unknown {
  if (typeof attributes[key] !== 'string') return undefined;
  return json(attributes, key) ?? attributes[key];
}

/**
 * A generation's input as messages: OpenAI-style `{ role, content }` messages, an object
 * holding `messages`, or a plain text (a user message).
 * @example
 * ```ts
 * langfuseMessages({ 'langfuse.observation.input': '[{"role":"user","content":"Hi"}]' }); // [{ role: 'user', content: 'Hi' }]
 * ```
 */
export function langfuseMessages(attributes: Attributes): StepMessage[] | undefined {
  const input = valueOf(attributes, LANGFUSE.input);
  if (input === undefined) return undefined;
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const messages = Array.isArray(input) ? input : isObject(input) && Array.isArray(input.messages) ? input.messages : undefined;
  return messages === undefined ? [{ role: 'user', content: readableText(input) }] : stepMessages(messages);
}

/** The text of an answer as apps hand it to Langfuse: a text, a message, a completion, or messages. */
function answerOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const last = [...value].reverse().find((message) => isObject(message) && message.role === 'assistant');
    return last === undefined ? readableText(value) : answerOf(last);
  }
  if (isObject(value)) {
    if (Array.isArray(value.choices) && isObject(value.choices[0])) return answerOf(value.choices[0].message);
    if ('content' in value || Array.isArray(value.tool_calls)) {
      // An OpenAI assistant message: its text, then its tool calls as `name(arguments)` lines.
      const content = value.content ?? '';
      const words = typeof content === 'string' ? content : (stepMessages([{ role: 'assistant', content }])[0]?.content ?? '');
      const calls = Array.isArray(value.tool_calls) ? value.tool_calls.filter(isObject).map((call) => callText(call)) : [];
      return answerText(words, calls);
    }
    if (typeof value.text === 'string') return value.text;
  }
  return readableText(value);
}

/** An OpenAI tool call (`{ function: { name, arguments } }`) as `name(arguments)`. */
function callText(call: Record<string, unknown>): string {
  const fn = isObject(call.function) ? call.function : call;
  return toolCallText(typeof fn.name === 'string' ? fn.name : undefined, fn.arguments);
}

/** What a person reads of a value: an object holding one text gives that text (`{ question: 'Hi' }`). */
function wordsOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isObject(value) && !Array.isArray(value)) {
    const texts = Object.values(value).filter((field): field is string => typeof field === 'string');
    if (texts.length === 1) return texts[0] as string;
  }
  return lastUserText(stepMessagesOf(value)) ?? readableText(value);
}

/**
 * An observation's output as text; `undefined` when it has none.
 * @example
 * ```ts
 * langfuseOutput({ 'langfuse.observation.output': '{"role":"assistant","content":"Hello!"}' }); // 'Hello!'
 * ```
 */
export function langfuseOutput(attributes: Attributes): string | undefined {
  const output = valueOf(attributes, LANGFUSE.output);
  return output === undefined ? undefined : answerOf(output);
}

/**
 * A tool's or retriever's input and output as Langfuse has them (`undefined` when absent).
 * @example
 * ```ts
 * langfuseValue(span.attributes, 'input'); // '{"id":7}'
 * ```
 */
export function langfuseValue(attributes: Attributes, which: 'input' | 'output'): unknown {
  return valueOf(attributes, which === 'input' ? LANGFUSE.input : LANGFUSE.output);
}

/**
 * A run's input: its trace's (`setActiveTraceIO`), else its own, as the user's words.
 * @example
 * ```ts
 * langfuseRunInput({ 'langfuse.trace.input': 'Where is order 7?' }); // 'Where is order 7?'
 * ```
 */
export function langfuseRunInput(attributes: Attributes): string | undefined {
  const trace = valueOf(attributes, LANGFUSE.traceInput);
  if (trace !== undefined) return wordsOf(trace);
  const messages = langfuseMessages(attributes);
  return messages === undefined ? undefined : lastUserText(messages);
}

function stepMessagesOf(value: unknown): StepMessage[] {
  const messages = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.messages) ? value.messages : [];
  return stepMessages(messages);
}

/**
 * A run's output: its trace's, else its own.
 * @example
 * ```ts
 * langfuseRunOutput({ 'langfuse.observation.output': 'Order 7 shipped.' }); // 'Order 7 shipped.'
 * ```
 */
export function langfuseRunOutput(attributes: Attributes): string | undefined {
  const trace = valueOf(attributes, LANGFUSE.traceOutput);
  return trace !== undefined ? answerOf(trace) : langfuseOutput(attributes);
}

/** Counts of Langfuse's `usageDetails` (`input`/`output`, or the provider's own names). */
const INPUT_USAGE = ['input', 'prompt_tokens', 'input_tokens', 'promptTokens', 'inputTokens'];
const OUTPUT_USAGE = ['output', 'completion_tokens', 'output_tokens', 'completionTokens', 'outputTokens'];

function countIn(usage: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = usage[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  }
  return undefined;
}

/**
 * A generation's token counts from `usage_details`.
 * @example
 * ```ts
 * langfuseTokens({ 'langfuse.observation.usage_details': '{"input":12,"output":5}' }); // { input: 12, output: 5 }
 * ```
 */
export function langfuseTokens(attributes: Attributes): { input: number | undefined; output: number | undefined } {
  const usage = json(attributes, LANGFUSE.usage);
  if (!isObject(usage)) return { input: undefined, output: undefined };
  return { input: countIn(usage, INPUT_USAGE), output: countIn(usage, OUTPUT_USAGE) };
}
