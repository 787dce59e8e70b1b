/**
 * A model call's messages and answer, read from a span in each convention: the OTel GenAI
 * semantic conventions (`gen_ai.input.messages` / `gen_ai.output.messages`, parts),
 * the AI SDK (`ai.prompt.messages`, `ai.response.*`), OpenInference (flattened
 * `llm.input_messages.<i>.message.*`), OpenLLMetry (`gen_ai.prompt.<i>.*`) and Langfuse
 * (`langfuse.observation.input` / `.output`, `langfuse.trace.*`: langfuse.ts).
 */
import { stepMessages } from '../ai-sdk/messages.js';
import { answerText, lastUserText, systemFirst, toolCallText, type StepMessage } from '../provider/text.js';
import { isObject, readableText } from '../readable.js';
import { LANGFUSE, langfuseMessages, langfuseOutput, langfuseRunInput, langfuseRunOutput } from './langfuse.js';
import { type Attributes, firstText, flattened, json, text } from './span.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** A role as a step takes it: `developer` is a system message, `function` a tool's. */
function roleOf(role: unknown): StepMessage['role'] | undefined {
  if (role === 'developer') return 'system';
  if (role === 'function') return 'tool';
  return typeof role === 'string' && ROLES.has(role) ? (role as StepMessage['role']) : undefined;
}

/** The text of GenAI message parts: text parts, tool calls as `name(arguments)`, tool results. */
function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return typeof parts === 'string' ? parts : '';
  const texts: string[] = [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.content === 'string') texts.push(part.content);
    else if (part.type === 'tool_call') texts.push(toolCallText(typeof part.name === 'string' ? part.name : undefined, part.arguments));
    else if (part.type === 'tool_call_response') texts.push(readableText(part.response ?? part.result));
  }
  return texts.join('\n');
}

/** GenAI `{ role, parts }` messages as steps' messages. */
function genAiMessages(messages: unknown): StepMessage[] {
  if (!Array.isArray(messages)) return [];
  const read: StepMessage[] = [];
  for (const message of messages) {
    const role = isObject(message) ? roleOf(message.role) : undefined;
    if (role !== undefined && isObject(message)) read.push({ role, content: partsText(message.parts ?? message.content) });
  }
  return read;
}

/** OpenInference's flattened messages under `prefix` (`llm.input_messages`). */
function openInferenceMessages(attributes: Attributes, prefix: string): StepMessage[] {
  const read = flattened(attributes, prefix, ['message.role'], (at) => {
    const contents = flattened(attributes, `${at}message.contents`, ['message_content.text'], (part) => text(attributes, `${part}message_content.text`) ?? '');
    const calls = flattened(attributes, `${at}message.tool_calls`, ['tool_call.function.name'], (call) =>
      toolCallText(text(attributes, `${call}tool_call.function.name`), text(attributes, `${call}tool_call.function.arguments`) ?? ''),
    );
    const written = text(attributes, `${at}message.content`) ?? contents.join('\n');
    return { role: roleOf(attributes[`${at}message.role`]), content: answerText(written, calls) };
  });
  return read.filter((message): message is StepMessage => message.role !== undefined);
}

/** OpenLLMetry's flattened `gen_ai.prompt.<i>.role` / `.content`. */
function openLlmetryMessages(attributes: Attributes, prefix: string): StepMessage[] {
  const read = flattened(attributes, prefix, ['role', 'content'], (at) => {
    const calls = flattened(attributes, `${at}tool_calls`, ['name'], (call) =>
      toolCallText(text(attributes, `${call}name`), text(attributes, `${call}arguments`) ?? ''),
    );
    return { role: roleOf(attributes[`${at}role`] ?? 'assistant'), content: answerText(text(attributes, `${at}content`) ?? '', calls) };
  });
  return read.filter((message): message is StepMessage => message.role !== undefined);
}

/**
 * The messages a model call was given, system first; `undefined` when the span carries
 * none (its instrumentation did not capture content).
 *
 * @example
 * ```ts
 * inputMessages({ 'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"text","content":"Hi"}]}]' });
 * // [{ role: 'user', content: 'Hi' }]
 * ```
 */
export function inputMessages(attributes: Attributes): StepMessage[] | undefined {
  const genAi = json(attributes, 'gen_ai.input.messages');
  if (genAi !== undefined) {
    const instructions = partsText(json(attributes, 'gen_ai.system_instructions'));
    const system: StepMessage[] = instructions === '' ? [] : [{ role: 'system', content: instructions }];
    return systemFirst([...system, ...genAiMessages(genAi)]);
  }
  const aiSdk = json(attributes, 'ai.prompt.messages');
  if (Array.isArray(aiSdk)) return stepMessages(aiSdk);
  const aiPrompt = promptMessages(attributes);
  if (aiPrompt !== undefined) return aiPrompt;
  const openInference = openInferenceMessages(attributes, 'llm.input_messages');
  if (openInference.length > 0) return systemFirst(openInference);
  const openLlmetry = openLlmetryMessages(attributes, 'gen_ai.prompt');
  if (openLlmetry.length > 0) return systemFirst(openLlmetry);
  const langfuse = langfuseMessages(attributes);
  return langfuse === undefined ? undefined : systemFirst(langfuse);
}

/** The AI SDK's `ai.prompt` of a run (`{ system?, prompt?, messages? }`) as messages. */
function promptMessages(attributes: Attributes): StepMessage[] | undefined {
  const prompt = json(attributes, 'ai.prompt');
  if (!isObject(prompt)) return undefined;
  const system: StepMessage[] = typeof prompt.system === 'string' ? [{ role: 'system', content: prompt.system }] : [];
  if (typeof prompt.prompt === 'string') return [...system, { role: 'user', content: prompt.prompt }];
  return Array.isArray(prompt.messages) ? systemFirst([...system, ...stepMessages(prompt.messages)]) : undefined;
}

/**
 * The answer of a model call or run: its text followed by its tool calls as
 * `name(arguments)` lines; `undefined` when the span carries none.
 *
 * @example
 * ```ts
 * outputText({ 'ai.response.text': 'Hello!' }); // 'Hello!'
 * ```
 */
export function outputText(attributes: Attributes): string | undefined {
  const genAi = json(attributes, 'gen_ai.output.messages');
  if (Array.isArray(genAi)) return genAiMessages(genAi).map((message) => message.content).join('\n');
  const aiText = text(attributes, 'ai.response.text') ?? text(attributes, 'ai.response.object');
  const aiCalls = json(attributes, 'ai.response.toolCalls');
  if (aiText !== undefined || Array.isArray(aiCalls)) {
    const calls = Array.isArray(aiCalls)
      ? aiCalls.filter(isObject).map((call) => toolCallText(typeof call.toolName === 'string' ? call.toolName : undefined, call.input ?? call.args))
      : [];
    return answerText(aiText ?? '', calls);
  }
  const openInference = openInferenceMessages(attributes, 'llm.output_messages');
  if (openInference.length > 0) return openInference.map((message) => message.content).join('\n');
  const openLlmetry = openLlmetryMessages(attributes, 'gen_ai.completion');
  if (openLlmetry.length > 0) return openLlmetry.map((message) => message.content).join('\n');
  return langfuseOutput(attributes);
}

/**
 * What a run (an agent, a workflow, `generateText`) was asked: the last user message's
 * text, from its messages or its input value.
 *
 * @example
 * ```ts
 * runInput({ 'ai.prompt': '{"prompt":"Hi"}' }); // 'Hi'
 * ```
 */
export function runInput(attributes: Attributes): string | undefined {
  // A Langfuse trace's input is what the app says the user asked.
  if (text(attributes, LANGFUSE.type) !== undefined) return langfuseRunInput(attributes);
  const messages = inputMessages(attributes);
  const fromMessages = messages === undefined ? undefined : lastUserText(messages);
  return fromMessages ?? plainValue(firstText(attributes, ['input.value', 'traceloop.entity.input']));
}

/**
 * What a run answered: its answer's text, else its output value.
 *
 * @example
 * ```ts
 * runOutput({ 'output.value': 'It shipped.' }); // 'It shipped.'
 * ```
 */
export function runOutput(attributes: Attributes): string | undefined {
  if (text(attributes, LANGFUSE.type) !== undefined) return langfuseRunOutput(attributes);
  // A run's GenAI output holds every message of the run (tool calls and results too): the
  // answer shown is the text of its last assistant message that has some.
  const genAi = json(attributes, 'gen_ai.output.messages');
  if (Array.isArray(genAi)) {
    const texts = genAi
      .filter((message) => isObject(message) && message.role === 'assistant' && Array.isArray(message.parts))
      .map((message) => partsText((message as { parts: unknown[] }).parts.filter((part) => isObject(part) && part.type === 'text')))
      .filter((text) => text !== '');
    if (texts.length > 0) return texts.at(-1);
  }
  // The AI SDK's run spans: the answer's text (tool calls of the run are not what was shown).
  const aiAnswer = text(attributes, 'ai.response.text') ?? text(attributes, 'ai.response.object');
  if (aiAnswer !== undefined) return aiAnswer;
  return outputText(attributes) ?? plainValue(firstText(attributes, ['output.value', 'traceloop.entity.output']));
}

/**
 * A value as a person reads it: a JSON string whose object holds one text (`{"input":
 * "Hi"}`, as OpenInference and OpenLLMetry write a chain's input) gives that text.
 */
function plainValue(value: string | undefined): string | undefined {
  if (value === undefined || !value.startsWith('{')) return value;
  try {
    const parsed = JSON.parse(value) as unknown;
    if (isObject(parsed)) {
      const texts = Object.values(parsed).filter((field): field is string => typeof field === 'string');
      if (texts.length === 1) return texts[0];
      const messages = Array.isArray(parsed.messages) ? stepMessages(parsed.messages) : [];
      return lastUserText(messages) ?? value;
    }
  } catch {
    // Not JSON after all: the value as it is.
  }
  return value;
}
