// A model's price, for the client option `modelPrices`: apart from options.ts, which the
// option kinds that check it cannot import.

/**
 * What a model costs, in US dollars per million tokens, for the option `modelPrices`.
 *
 * @example
 * ```ts
 * const price: ModelPrice = { input: 2.5, cachedInput: 1.25, output: 10 };
 * ```
 */
export interface ModelPrice {
  /** Input tokens read from no cache. */
  input: number;
  /** Input tokens read from the provider's prompt cache. Default: `input`. */
  cachedInput?: number | undefined;
  /** Input tokens written to the provider's prompt cache (Anthropic's cache writes). Default: `input`. */
  cacheWrite?: number | undefined;
  /** Output tokens, reasoning tokens included. */
  output: number;
}
