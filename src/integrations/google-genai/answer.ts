/**
 * A `@google/genai` answer (a `GenerateContentResponse`, whole or as the chunks of a
 * stream) as the answer an LLM step records: the first candidate's text and function
 * calls, the model that answered, and the tokens of `usageMetadata`.
 */
import type { AnswerCollector } from '../provider/step.js';
import { asString, fieldsOf, tokenCount, toolCallText } from '../provider/text.js';
import { billedOf, type DetailedAnswer } from '../token-details.js';
import { FunctionIds } from './contents.js';

// Read by name, not with `field()`: this runs on every call (see `fieldsOf`).

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

const NO_PARTS: readonly unknown[] = [];

/** The parts of a response's first candidate (only the first is recorded: `candidateCount` 1, the default). */
function firstCandidateParts(response: Readonly<Record<string, unknown>>): readonly unknown[] {
  const candidates = response.candidates;
  const first = Array.isArray(candidates) ? (candidates[0] as unknown) : undefined;
  const parts = fieldsOf(fieldsOf(first)?.content)?.parts;
  return Array.isArray(parts) ? parts : NO_PARTS;
}

/**
 * Collects an answer's parts, whole or chunk by chunk: text (thoughts left out) in order,
 * function calls (each arrives whole) with the ids the next request's responses match.
 * Token counts as `usageMetadata` gives them: prompt (cached ones included) and
 * candidates; thoughts apart.
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
  /** Made at the first function call: most answers have none. */
  #ids: FunctionIds | undefined;
  #inputTokens: number | undefined;
  #outputTokens: number | undefined;
  #cachedInputTokens: number | undefined;
  #reasoningTokens: number | undefined;

  constructor(requested: string | undefined) {
    this.#model = modelName(requested);
  }

  /** A whole response, or one chunk of a stream: each chunk's usage is the call's so far. */
  add(response: unknown): void {
    const fields = fieldsOf(response);
    if (fields === undefined) return;
    const model = asString(fields.modelVersion);
    if (model !== undefined && model !== '') this.#model = model;
    const usage = fields.usageMetadata;
    if (usage !== undefined && usage !== null) {
      const counts = fieldsOf(usage);
      this.#inputTokens = tokenCount(counts?.promptTokenCount);
      this.#outputTokens = tokenCount(counts?.candidatesTokenCount);
      this.#cachedInputTokens = tokenCount(counts?.cachedContentTokenCount);
      this.#reasoningTokens = tokenCount(counts?.thoughtsTokenCount);
    }
    for (const part of firstCandidateParts(fields)) {
      const partFields = fieldsOf(part);
      const call = partFields?.functionCall;
      if (call !== undefined && call !== null) {
        const callFields = fieldsOf(call);
        this.#toolCalls.push(toolCallText(asString(callFields?.name), callFields?.args ?? {}));
        this.#toolCallIds.push(...(this.#ids ??= new FunctionIds()).of(call));
        continue;
      }
      const text = asString(partFields?.text);
      if (text !== undefined && partFields?.thought !== true) this.#text += text;
    }
  }

  answer(): DetailedAnswer {
    const answer: DetailedAnswer = {
      model: this.#model,
      text: this.#text,
      toolCalls: this.#toolCalls,
      toolCallIds: this.#toolCallIds,
      inputTokens: this.#inputTokens,
      outputTokens: this.#outputTokens,
      cachedInputTokens: this.#cachedInputTokens,
      reasoningTokens: this.#reasoningTokens,
    };
    // Cached input and thinking billed at their own rates: the step's `cost`.
    answer.billed = billedOf(answer);
    return answer;
  }
}
