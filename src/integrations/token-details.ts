/**
 * The parts of a call's token counts that a provider reports beside its input and output
 * totals, kept on the answer as the provider gave them, for what prices a call.
 */
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
