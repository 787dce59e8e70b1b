import type {
  EmbeddingStep,
  EmbeddingStepInput,
  LLMStep,
  LLMStepInput,
  RetrievalStep,
  RetrievalStepInput,
} from '../schemas/index.js';
import { zodChecks } from './zod-checks-now.js';

/**
 * An LLM step of a trace: one call to a model, with the conversation so far (oldest
 * first) and the model's answer. Validated; optional fields are left out, never `null`.
 *
 * @throws ValidationError listing every problem by path (`messages[1].role`).
 *
 * @example
 * ```ts
 * const step = llmStep({
 *   model: 'gpt-4o',
 *   messages: [
 *     { role: 'system', content: 'You are terse.' },
 *     { role: 'user', content: 'What is 2 + 2?' },
 *   ],
 *   output: '4',
 *   input_tokens: 18,
 *   output_tokens: 1,
 *   cost: usdToMicroDollars(0.000051),
 * });
 * ```
 */
export function llmStep(step: LLMStepInput): LLMStep {
  const { parseOrThrow, schemas } = zodChecks();
  return parseOrThrow(schemas.llmStepSchema, step, 'LLM step');
}

/**
 * A retrieval step of a trace: a query to a vector database, a reader tool or a
 * function-calling tool, with everything it returned.
 *
 * @throws ValidationError listing every problem by path (`outputs[2]`).
 *
 * @example
 * ```ts
 * const step = retrievalStep({
 *   source: 'pinecone:handbook',
 *   input: 'parental leave policy',
 *   outputs: ['Parental leave is 16 weeks…', 'Requests go to HR…'],
 * });
 * ```
 */
export function retrievalStep(step: RetrievalStepInput): RetrievalStep {
  const { parseOrThrow, schemas } = zodChecks();
  return parseOrThrow(schemas.retrievalStepSchema, step, 'retrieval step');
}

/**
 * An embedding step of a trace: one call to an embedding model.
 *
 * @throws ValidationError listing every problem by path (`input_tokens`).
 *
 * @example
 * ```ts
 * const step = embeddingStep({ model: 'text-embedding-3-small', input: 'parental leave', input_tokens: 3 });
 * ```
 */
export function embeddingStep(step: EmbeddingStepInput): EmbeddingStep {
  const { parseOrThrow, schemas } = zodChecks();
  return parseOrThrow(schemas.embeddingStepSchema, step, 'embedding step');
}
