import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import type { LLMStepInput } from '../schemas/index.js';
import { embeddingStep, llmStep, retrievalStep } from './steps.js';

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map((issue) => `${issue.pathText} ${issue.message}`);
  }
  throw new Error('expected a ValidationError');
}

describe('llmStep', () => {
  it('returns the wire object, leaving out what was not given', () => {
    const step = llmStep({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello' });
    expect(JSON.stringify(step)).toBe(
      '{"model":"gpt-4o","messages":[{"role":"user","content":"Hi"}],"output":"Hello"}',
    );
  });

  it('keeps the token counts and cost', () => {
    const step = llmStep({
      model: 'gpt-4o',
      messages: [],
      output: '',
      input_tokens: 10,
      output_tokens: 2,
      cost: 12,
    });
    expect(step).toMatchObject({ input_tokens: 10, output_tokens: 2, cost: 12 });
  });

  it('reports every problem by path', () => {
    const bad = {
      model: '',
      messages: [{ role: 'user', content: 'ok' }, { role: 'robot', content: 'x' }],
      output: 'x',
      cost: 1.5,
    } as unknown as LLMStepInput;
    expect(issuesOf(() => llmStep(bad))).toEqual([
      'model must not be empty',
      'messages[1].role must be one of "system", "user", "assistant", "tool"',
      'cost must be an integer (got 1.5)',
    ]);
  });
});

describe('retrievalStep', () => {
  it('returns the wire object', () => {
    expect(retrievalStep({ source: 'db', input: 'q', outputs: ['a', 'b'] })).toEqual({
      source: 'db',
      input: 'q',
      outputs: ['a', 'b'],
    });
  });

  it('reports a bad output by index', () => {
    const bad = { source: 'db', input: 'q', outputs: ['a', 2] } as unknown as Parameters<typeof retrievalStep>[0];
    expect(issuesOf(() => retrievalStep(bad))).toEqual(['outputs[1] must be a string (got number)']);
  });
});

describe('embeddingStep', () => {
  it('returns the wire object', () => {
    expect(embeddingStep({ model: 'e5', input: 'text', input_tokens: 1 })).toEqual({
      model: 'e5',
      input: 'text',
      input_tokens: 1,
    });
  });

  it('rejects negative token counts', () => {
    expect(issuesOf(() => embeddingStep({ model: 'e5', input: 'x', input_tokens: -1 }))).toEqual([
      'input_tokens must be zero or more',
    ]);
  });
});
