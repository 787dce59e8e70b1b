/**
 * What a model call cost, from the tokens its provider reported and a price table: the
 * built-in one below, extended or overridden by the client's `modelPrices`.
 *
 * The service prices a step from `model`, `input_tokens` and `output_tokens` alone, so a
 * call that read its prompt from a cache (or wrote it there) would be priced as plain
 * input: such steps carry their `cost`, computed here.
 */
import type { ModelPrice } from '../core/model-price.js';

/**
 * List prices of the providers' current text models, standard tier, in US dollars per
 * million tokens, as published on 2026-11-28 by:
 *
 * - OpenAI: https://platform.openai.com/docs/pricing ("Standard": input, cached input, output);
 * - Anthropic: https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing":
 *   base input, 5-minute cache writes, cache hits, output);
 * - Google: https://ai.google.dev/gemini-api/docs/pricing (paid tier, prompts up to 200k
 *   tokens: input, context caching, output; cache storage is billed by the hour, apart).
 *
 * Prices change: the client option `modelPrices` extends and overrides this table.
 */
const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  'gpt-5.4': { input: 2.5, cachedInput: 0.25, output: 15 },
  'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, output: 4.5 },
  'gpt-5.2': { input: 1.75, cachedInput: 0.175, output: 14 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  // The first gpt-4o snapshot kept its own price.
  'gpt-4o-2024-05-13': { input: 5, output: 15 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o1: { input: 15, cachedInput: 7.5, output: 60 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  // Anthropic (model ids as @anthropic-ai/sdk 1.x lists them)
  'claude-fable-5': { input: 10, cacheWrite: 12.5, cachedInput: 1, output: 50 },
  'claude-mythos-5': { input: 10, cacheWrite: 12.5, cachedInput: 1, output: 50 },
  'claude-opus-5': { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  'claude-opus-4-8': { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  'claude-opus-4-7': { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  'claude-opus-4-6': { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  'claude-opus-4-5': { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  'claude-opus-4-1': { input: 15, cacheWrite: 18.75, cachedInput: 1.5, output: 75 },
  'claude-opus-4-0': { input: 15, cacheWrite: 18.75, cachedInput: 1.5, output: 75 },
  'claude-opus-4': { input: 15, cacheWrite: 18.75, cachedInput: 1.5, output: 75 },
  'claude-sonnet-4-6': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-sonnet-4-5': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-sonnet-4-0': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-sonnet-4': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-3-7-sonnet': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-haiku-4-5': { input: 1, cacheWrite: 1.25, cachedInput: 0.1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, cacheWrite: 1, cachedInput: 0.08, output: 4 },
  'claude-3-haiku': { input: 0.25, cacheWrite: 0.3, cachedInput: 0.03, output: 1.25 },
  // Google
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.01, output: 0.4 },
};

/**
 * A call's tokens as billed: each kind at its own rate.
 *
 * @example
 * ```ts
 * // OpenAI: prompt_tokens 1000 of which cached_tokens 800, completion_tokens 50
 * const usage: BilledTokens = { input: 200, cachedInput: 800, cacheWrite: 0, output: 50, reasoning: 0 };
 * ```
 */
export interface BilledTokens {
  /** Input tokens billed at the plain input rate (neither read from nor written to a cache). */
  readonly input: number;
  readonly cachedInput: number;
  readonly cacheWrite: number;
  /** Output tokens, reasoning included. */
  readonly output: number;
  /** Of `output`, the reasoning tokens (said apart by the provider). */
  readonly reasoning: number;
}

/** A snapshot's date (`-2024-08-06`, `-20250514`, Vertex's `@20250514`) or version (`-001`). */
const SNAPSHOT_SUFFIX = /(?:-\d{4}-\d{2}-\d{2}|[-@]\d{8}|-\d{3})$/;

/**
 * A Bedrock model id (`anthropic.claude-sonnet-4-5-20250929-v1:0`, with a cross-region
 * profile's `us.` or `global.` first): its vendor and region before the model's name, its
 * version (`-v1:0`) after. Bedrock's on-demand prices are the vendor's.
 */
const BEDROCK_ID = /^(?:[a-z]{2,6}\.)?(?:anthropic|openai|google)\.(.+?)(?:-v\d+(?::\d+)?)?$/;

/** The name as looked up: lower case, without a provider's path (`models/gemini-2.5-pro`) or Bedrock's wrapping. */
function lookupName(model: string): string {
  const lower = model.trim().toLowerCase();
  const slash = lower.lastIndexOf('/');
  const name = slash >= 0 ? lower.slice(slash + 1) : lower;
  return BEDROCK_ID.exec(name)?.[1] ?? name;
}

function findIn(table: Readonly<Record<string, ModelPrice>>, name: string): ModelPrice | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/**
 * The price of `model`: the client's `modelPrices` first, then the built-in table; the
 * name as given, then without its snapshot's date (`gpt-4o-2024-08-06` → `gpt-4o`).
 * `undefined` for a model in neither.
 *
 * @example
 * ```ts
 * priceOf('claude-sonnet-4-5-20250929', {}); // { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 }
 * ```
 */
export function priceOf(model: string, own: Readonly<Record<string, ModelPrice>> | undefined): ModelPrice | undefined {
  const name = lookupName(model);
  const undated = name.replace(SNAPSHOT_SUFFIX, '');
  const ownByName = own === undefined ? undefined : lowerCased(own);
  for (const candidate of undated === name ? [name] : [name, undated]) {
    const found = (ownByName === undefined ? undefined : findIn(ownByName, candidate)) ?? findIn(BUILT_IN_PRICES, candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The client's prices by lower-case name, made once per table. */
const lowered = new WeakMap<object, Readonly<Record<string, ModelPrice>>>();

function lowerCased(table: Readonly<Record<string, ModelPrice>>): Readonly<Record<string, ModelPrice>> {
  let found = lowered.get(table);
  if (found === undefined) {
    found = Object.fromEntries(Object.entries(table).map(([name, price]) => [lookupName(name), price]));
    lowered.set(table, found);
  }
  return found;
}

/**
 * The cost of a call, in micro-dollars, when it reported cached, cache-write or reasoning
 * tokens and its model has a price; else `undefined` (the service prices the step from
 * its token counts, as before).
 *
 * @example
 * ```ts
 * callCost('gpt-4o-2024-08-06', { input: 200, cachedInput: 800, cacheWrite: 0, output: 50, reasoning: 0 }, {});
 * // (200 × 2.5 + 800 × 1.25 + 50 × 10) / 1e6 USD = 2000 micro-dollars
 * ```
 */
export function callCost(model: string, tokens: BilledTokens, own: Readonly<Record<string, ModelPrice>> | undefined): number | undefined {
  if (tokens.cachedInput === 0 && tokens.cacheWrite === 0 && tokens.reasoning === 0) return undefined;
  const price = priceOf(model, own);
  if (price === undefined) return undefined;
  // USD per million tokens times tokens is micro-dollars: no unit to convert, and no import
  // of the builders (which would cut Node's main entry into one more shared file).
  const microDollars = Math.round(
    tokens.input * price.input +
      tokens.cachedInput * (price.cachedInput ?? price.input) +
      tokens.cacheWrite * (price.cacheWrite ?? price.input) +
      tokens.output * price.output,
  );
  return Number.isSafeInteger(microDollars) && microDollars >= 0 ? microDollars : undefined;
}
