/**
 * A `@google/genai` answer (a `GenerateContentResponse`, whole or as the chunks of a
 * stream) as the answer an LLM step records: the first candidate's text and function
 * calls, the model that answered, and the tokens of `usageMetadata`.
 */
import type { AnswerCollector } from '../provider/step.js';
import { arrayField, field, stringField, tokenCount, toolCallText } from '../provider/text.js';
import type { DetailedAnswer } from '../token-details.js';
import { FunctionIds } from './contents.js';

/**
 * The model as recorded: the request's `models/gemini-…` without its prefix.
 * @example
 * ```ts
 * modelName('models/gemini-2.5-flash'); // 'gemini-2.5-flash'
 * ```
 */
export function modelName(model: string | undefined): string | undefined {
  return model?.startsWith('models/') === true ? model.slice('models/'.length) : model;
}

/** The parts of a response's first candidate (only the first is recorded: `candidateCount` 1, the default). */
function firstCandidateParts(response: unknown): readonly unknown[] {
  return arrayField(field(arrayField(response, 'candidates')[0], 'content'), 'parts');
}

/** Token counts as `usageMetadata` gives them: prompt (cached ones included) and candidates; thoughts apart. */
function usageOf(usage: unknown): Pick<DetailedAnswer, 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'reasoningTokens'> {
  return {
    inputTokens: tokenCount(field(usage, 'promptTokenCount')),
    outputTokens: tokenCount(field(usage, 'candidatesTokenCount')),
    cachedInputTokens: tokenCount(field(usage, 'cachedContentTokenCount')),
    reasoningTokens: tokenCount(field(usage, 'thoughtsTokenCount')),
  };
}

/**
 * Collects an answer's parts, whole or chunk by chunk: text (thoughts left out) in order,
 * function calls (each arrives whole) with the ids the next request's responses match.
 * @example
 * ```ts
 * const collector = new GeminiCollector('gemini-2.5-flash');
 * collector.add(response);
 * collector.answer().text;
 * ```
 */
export class GeminiCollector implements AnswerCollector {
  #model: string | undefined;
  #text = '';
  readonly #toolCalls: string[] = [];
  readonly #toolCallIds: string[] = [];
  readonly #ids = new FunctionIds();
  #usage: ReturnType<typeof usageOf> = { inputTokens: undefined, outputTokens: undefined };

  constructor(requested: string | undefined) {
    this.#model = modelName(requested);
  }

  /** A whole response, or one chunk of a stream: each chunk's usage is the call's so far. */
  add(response: unknown): void {
    const model = stringField(response, 'modelVersion');
    if (model !== undefined && model !== '') this.#model = model;
    const usage = field(response, 'usageMetadata');
    if (usage !== undefined && usage !== null) this.#usage = usageOf(usage);
    for (const part of firstCandidateParts(response)) {
      const call = field(part, 'functionCall');
      if (call !== undefined && call !== null) {
        this.#toolCalls.push(toolCallText(stringField(call, 'name'), field(call, 'args') ?? {}));
        this.#toolCallIds.push(...this.#ids.of(call));
        continue;
      }
      const text = stringField(part, 'text');
      if (text !== undefined && field(part, 'thought') !== true) this.#text += text;
    }
  }

  answer(): DetailedAnswer {
    return { model: this.#model, text: this.#text, toolCalls: this.#toolCalls, toolCallIds: this.#toolCallIds, ...this.#usage };
  }
}
