import { describe, expect, it } from 'vitest';
import { callCost, priceOf } from './model-prices.js';

describe('priceOf', () => {
  it('matches a snapshot by its undated name, in the forms each provider dates it', () => {
    expect(priceOf('gpt-4o-2024-08-06', undefined)).toEqual(priceOf('gpt-4o', undefined));
    expect(priceOf('claude-sonnet-4-20250514', undefined)).toEqual(priceOf('claude-sonnet-4', undefined));
    expect(priceOf('claude-sonnet-4@20250514', undefined)).toEqual(priceOf('claude-sonnet-4', undefined));
    expect(priceOf('models/gemini-2.5-flash', undefined)).toEqual(priceOf('gemini-2.5-flash', undefined));
  });

  it('a snapshot priced apart keeps its own price; a longer name is another model', () => {
    expect(priceOf('gpt-4o-2024-05-13', undefined)).toEqual({ input: 5, output: 15 });
    expect(priceOf('gpt-4o-mini-2024-07-18', undefined)?.input).toBe(0.15);
    expect(priceOf('gpt-4o-audio-preview', undefined)).toBeUndefined();
  });

  it('reads a Bedrock model id as its vendor’s model: region profile, vendor and version left out', () => {
    const sonnet = priceOf('claude-sonnet-4-5', undefined);
    expect(sonnet).toBeDefined();
    expect(priceOf('anthropic.claude-sonnet-4-5-20250929-v1:0', undefined)).toEqual(sonnet);
    expect(priceOf('us.anthropic.claude-sonnet-4-5-20250929-v1:0', undefined)).toEqual(sonnet);
    expect(priceOf('global.anthropic.claude-sonnet-4-5-20250929-v1', undefined)).toEqual(sonnet);
    expect(priceOf('meta.llama3-70b-instruct-v1:0', undefined)).toBeUndefined();
  });

  it('the client’s prices first, by any case', () => {
    expect(priceOf('GPT-4o', { 'gpt-4O': { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
    expect(priceOf('unknown-model', {})).toBeUndefined();
  });
});

describe('callCost', () => {
  it('is undefined without cached, cache-write or reasoning tokens', () => {
    expect(callCost('gpt-4o', { input: 10, cachedInput: 0, cacheWrite: 0, output: 5, reasoning: 0 }, undefined)).toBeUndefined();
  });

  it('prices each kind of token at its rate, in micro-dollars', () => {
    // 1M cached tokens of gpt-4o at $1.25, 1M output at $10.
    expect(callCost('gpt-4o', { input: 0, cachedInput: 1_000_000, cacheWrite: 0, output: 1_000_000, reasoning: 0 }, undefined)).toBe(11_250_000);
  });
});
