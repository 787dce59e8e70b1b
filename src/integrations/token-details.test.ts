import { describe, expect, it } from 'vitest';
import { billedOf } from './token-details.js';

const answer = { model: 'm', text: 'Hi', toolCalls: [], inputTokens: 1200, outputTokens: 3 };

describe('billedOf', () => {
  it('says cache reads, cache writes and reasoning apart: input without them, output with the reasoning', () => {
    expect(billedOf({ ...answer, cachedInputTokens: 1024, reasoningTokens: 40 })).toEqual({ input: 176, cachedInput: 1024, cacheWrite: 0, output: 43, reasoning: 40 });
    expect(billedOf({ ...answer, cachedInputTokens: 1000, cacheWriteTokens: 100 })).toEqual({ input: 100, cachedInput: 1000, cacheWrite: 100, output: 3, reasoning: 0 });
  });

  it('is undefined when nothing was said apart, or the totals were not said', () => {
    expect(billedOf(answer)).toBeUndefined();
    expect(billedOf({ ...answer, cachedInputTokens: 0, reasoningTokens: 0 })).toBeUndefined();
    expect(billedOf({ ...answer, inputTokens: undefined, cachedInputTokens: 10 })).toBeUndefined();
  });
});
