import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { llmStep } from '../builders/steps.js';
import { unknownKeys } from './unknown-keys.js';

const messages = (issues: ReturnType<typeof unknownKeys>) => issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);

describe('unknownKeys', () => {
  it('names each key an object does not have, through arrays, wrappers and the members of a union', () => {
    const schema = z.object({
      items: z.optional(z.array(z.union([z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b'), b: z.number() })]))),
    });
    expect(messages(unknownKeys(schema, { items: [{ kind: 'a', a: 'x', colour: 1 }, { kind: 'b', b: 2 }], item: [] }))).toEqual([
      'items.0.colour is not a field',
      'item is not a field; did you mean `items`?',
    ]);
  });

  it('leaves the keys of a record, a loose object, and a union with a member that is not an object to them', () => {
    const schema = z.object({
      tags: z.record(z.string(), z.string()),
      extra: z.looseObject({ a: z.string() }),
      either: z.union([z.string(), z.object({ a: z.string() })]),
    });
    expect(unknownKeys(schema, { tags: { anyKey: 'v' }, extra: { a: 'x', b: 'y' }, either: { a: 'x', b: 'y' } })).toEqual([]);
  });

  it('never throws: a getter that throws is left to zod, and a cycle ends', () => {
    const throwing = Object.defineProperty({}, 'a', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const node: Record<string, unknown> = {};
    node.next = node;
    const tree: z.ZodMiniType = z.object({ next: z.optional(z.lazy(() => tree)) });
    expect(unknownKeys(z.object({ a: z.string() }), throwing)).toEqual([]);
    expect(unknownKeys(tree, node)).toEqual([]);
  });

  it('makes a builder refuse a misspelled field instead of dropping it', () => {
    expect(() => llmStep({ model: 'm', messages: [], output: 'o', inputTokens: 5 } as never)).toThrow(
      'Invalid LLM step: inputTokens is not a field; did you mean `input_tokens`?',
    );
  });
});
