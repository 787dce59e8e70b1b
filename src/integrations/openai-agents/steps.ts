/**
 * The spans of one OpenAI Agents SDK run as steps: its model calls (`response`,
 * `generation`), its tool runs (`function`) and its handoffs (`handoff`). Read
 * structurally: `@openai/agents` is never loaded.
 */
import { responseAnswer } from '../openai/responses.js';
import { llmFinished } from '../provider/step.js';
import { contentText, systemFirst, toolCallText, tokenCount, type StepMessage } from '../provider/text.js';
import { isObject, readableText } from '../readable.js';
import type { Step } from '../record-interaction.js';

/**
 * What is read of an Agents SDK span.
 *
 * @example
 * ```ts
 * const tool: AgentsSpan = { traceId, startedAt, endedAt, error: null, spanData: { type: 'function', name: 'lookup', input: '{}', output: 'ok' } };
 * ```
 */
export interface AgentsSpan {
  readonly traceId: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly error: { readonly message: string } | null;
  readonly spanData: { readonly type: string } & Record<string, unknown>;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant']);

/** An input item of the Agents SDK's protocol as a message: messages, tool calls, tool results. */
function itemMessage(item: unknown): StepMessage | undefined {
  if (!isObject(item)) return undefined;
  if (item.type === 'function_call') return { role: 'assistant', content: toolCallText(typeof item.name === 'string' ? item.name : undefined, item.arguments) };
  if (item.type === 'function_call_result' || item.type === 'function_call_output') {
    const output = isObject(item.output) && typeof item.output.text === 'string' ? item.output.text : readableText(item.output ?? '');
    return { role: 'tool', content: output };
  }
  const role = typeof item.role === 'string' && ROLES.has(item.role) ? item.role : undefined;
  if (role === undefined) return undefined;
  return { role: role === 'developer' ? 'system' : (role as StepMessage['role']), content: contentText(item.content, '\n') };
}

/** A model call's input (a string, or items) as messages. */
function inputMessages(input: unknown): StepMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return [];
  return systemFirst(input.map(itemMessage).filter((message): message is StepMessage => message !== undefined));
}

/** A model call's step, and the text the user saw of it: its message texts, without tool calls. */
interface ModelAnswer {
  readonly step: Step;
  readonly text: string;
}

function responseStep(data: Record<string, unknown>): ModelAnswer | undefined {
  const response = data._response;
  if (!isObject(response)) return undefined;
  const answer = responseAnswer(response, undefined);
  const { llm } = llmFinished(inputMessages(data._input), answer, { kind: 'complete' });
  return llm === undefined ? undefined : { step: { kind: 'llm', step: llm }, text: answer.text };
}

function generationStep(data: Record<string, unknown>): ModelAnswer | undefined {
  if (!Array.isArray(data.output)) return undefined;
  const outputs = data.output.map(itemMessage).filter((message): message is StepMessage => message !== undefined);
  const text = outputs.filter((message) => message.role === 'assistant').map((message) => message.content).join('\n');
  const usage = isObject(data.usage) ? data.usage : {};
  const answer = { model: typeof data.model === 'string' ? data.model : undefined, text, toolCalls: [], inputTokens: tokenCount(usage.input_tokens), outputTokens: tokenCount(usage.output_tokens) };
  const { llm } = llmFinished(inputMessages(data.input), answer, { kind: 'complete' });
  return llm === undefined ? undefined : { step: { kind: 'llm', step: llm }, text };
}

/**
 * The step of a span, with the answer's text for model calls; `undefined` for spans that
 * are no step (the run, an agent, a turn, a guardrail) or model calls traced without
 * their content (tracing without sensitive data).
 *
 * @example
 * ```ts
 * const read = spanStep(span); // { step: { kind: 'retrieval', step: { source: 'get_order', … } } }
 * ```
 */
export function spanStep(span: AgentsSpan): { step: Step; text?: string } | undefined {
  const data = span.spanData;
  switch (data.type) {
    case 'response':
      return responseStep(data);
    case 'generation':
      return generationStep(data);
    case 'function': {
      const output = span.error === null ? readableText(data.output ?? '') : `[nebuly: call failed (${span.error.message})]`;
      const source = typeof data.name === 'string' && data.name !== '' ? data.name : 'tool';
      return { step: { kind: 'retrieval', step: { source, input: readableText(data.input ?? ''), outputs: [output] } } };
    }
    case 'handoff': {
      // A handoff is visible as a step of its own: from which agent, to which.
      const from = typeof data.from_agent === 'string' ? data.from_agent : '';
      const to = typeof data.to_agent === 'string' ? data.to_agent : '';
      return { step: { kind: 'retrieval', step: { source: 'handoff', input: from, outputs: [to] } } };
    }
    default:
      return undefined;
  }
}

/**
 * The text shown to the user after a run: the last model call's message text.
 *
 * @example
 * ```ts
 * finalText(['', 'Order 7 has shipped.', undefined]); // 'Order 7 has shipped.'
 * ```
 */
export function finalText(answers: readonly (string | undefined)[]): string {
  for (let index = answers.length - 1; index >= 0; index -= 1) {
    const text = answers[index];
    if (text !== undefined && text !== '') return text;
  }
  return '';
}
