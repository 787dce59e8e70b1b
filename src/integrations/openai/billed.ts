/**
 * OpenAI's usage as billed: `prompt_tokens` (chat) and `input_tokens` (Responses) count
 * the cached tokens too (`…_tokens_details.cached_tokens`), and the output counts the
 * reasoning tokens (`…_tokens_details.reasoning_tokens`).
 */
import type { BilledTokens } from '../model-prices.js';
import { field, tokenCount } from '../provider/text.js';

/** Where each API keeps its counts. */
interface UsageNames {
  readonly input: string;
  readonly output: string;
  readonly inputDetails: string;
  readonly outputDetails: string;
}

const CHAT: UsageNames = { input: 'prompt_tokens', output: 'completion_tokens', inputDetails: 'prompt_tokens_details', outputDetails: 'completion_tokens_details' };
const RESPONSES: UsageNames = { input: 'input_tokens', output: 'output_tokens', inputDetails: 'input_tokens_details', outputDetails: 'output_tokens_details' };

function billed(usage: unknown, names: UsageNames): BilledTokens | undefined {
  const input = tokenCount(field(usage, names.input));
  const output = tokenCount(field(usage, names.output));
  if (input === undefined || output === undefined) return undefined;
  const cachedInput = Math.min(tokenCount(field(field(usage, names.inputDetails), 'cached_tokens')) ?? 0, input);
  const reasoning = tokenCount(field(field(usage, names.outputDetails), 'reasoning_tokens')) ?? 0;
  return { input: input - cachedInput, cachedInput, cacheWrite: 0, output, reasoning };
}

/**
 * A chat completion's `usage` as billed; `undefined` without its counts.
 * @example
 * ```ts
 * chatBilled({ prompt_tokens: 1000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 800 } });
 * // { input: 200, cachedInput: 800, cacheWrite: 0, output: 50, reasoning: 0 }
 * ```
 */
export const chatBilled = (usage: unknown): BilledTokens | undefined => billed(usage, CHAT);

/**
 * A response's `usage` (Responses API) as billed; `undefined` without its counts.
 * @example
 * ```ts
 * responsesBilled({ input_tokens: 10, output_tokens: 90, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 64 } });
 * ```
 */
export const responsesBilled = (usage: unknown): BilledTokens | undefined => billed(usage, RESPONSES);
