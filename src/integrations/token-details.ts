/**
 * The parts of a call's token counts that a provider reports beside its input and output
 * totals, kept on the answer as the provider gave them, for what prices a call.
 */
import type { BilledTokens } from './model-prices.js';
import type { Answer } from './provider/step.js';

/**
 * An answer with the detail of its token counts, each as the provider reported it
 * (`undefined` when it reported none).
 * @example
 * ```ts
 * const answer: DetailedAnswer = { model: 'gemini-2.5-flash', text: 'Hi', toolCalls: [], inputTokens: 1200, outputTokens: 3, cachedInputTokens: 1024, reasoningTokens: 40 };
 * ```
 */
export interface DetailedAnswer extends Answer {
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`). */
  cachedInputTokens?: number | undefined;
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`). */
  cacheWriteTokens?: number | undefined;
  /** Tokens the model spent thinking, which the provider bills as output (not part of `outputTokens`). */
  reasoningTokens?: number | undefined;
}

/**
 * The tokens of `answer` as billed, each kind at its own rate, when the provider said a
 * kind apart (cache reads, cache writes, reasoning): input less what was read from or
 * written to the cache, output with the reasoning. `undefined` when it said none apart,
 * or did not say its totals (the service then prices the step from its token counts).
 *
 * @example
 * ```ts
 * billedOf({ ...answer, inputTokens: 1200, outputTokens: 3, cachedInputTokens: 1024, reasoningTokens: 40 });
 * // { input: 176, cachedInput: 1024, cacheWrite: 0, output: 43, reasoning: 40 }
 * ```
 */
export function billedOf(answer: DetailedAnswer): BilledTokens | undefined {
  const { inputTokens, outputTokens } = answer;
  const cachedInput = answer.cachedInputTokens ?? 0;
  const cacheWrite = answer.cacheWriteTokens ?? 0;
  const reasoning = answer.reasoningTokens ?? 0;
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  if (cachedInput === 0 && cacheWrite === 0 && reasoning === 0) return undefined;
  return { input: Math.max(0, inputTokens - cachedInput - cacheWrite), cachedInput, cacheWrite, output: outputTokens + reasoning, reasoning };
}
