/**
 * The recorder's own check of an ended interaction (src/recorder/plain-interaction.ts)
 * against the schema it stands for: whatever it accepts, the schema accepts, with the
 * same wire output, key order included; and on ordinary JSON data it accepts whatever
 * the schema accepts, so that valid recording never loads zod.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wireOf } from '../../src/recorder/interaction-parts.js';
import { wireInteraction } from '../../src/recorder/payload-issues.js';
import { plainPart } from '../../src/recorder/plain-interaction.js';
import type { InteractionRecord } from '../../src/recorder/record.js';
import { FEEDBACK_SLUGS, MESSAGE_ROLES } from '../../src/schemas/index.js';
import type { Issue } from '../../src/utils/issues.js';
import { runParameters } from './hostile.js';

const T0 = Date.parse('2026-03-04T05:06:07.000Z');
const TIMES = { start: new Date(T0).toISOString(), end: new Date(T0 + 1).toISOString() };

/** Builds the arbitraries of a record; `odd` adds what only the schema may judge. */
function records(odd: boolean) {
  const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 4 });
  const wrong = odd
    ? fc.oneof(fc.constantFrom(null, 1.5, -1, Number.NaN, '', [], {}, true), fc.constant(new Date(0)), fc.constant(10n))
    : fc.constantFrom(null, 1.5, -1, Number.NaN, '', true);
  const sometimes = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 30, arbitrary }, { weight: 1, arbitrary: wrong });
  const json = odd
    ? fc.oneof(fc.jsonValue(), fc.constant(new Date(0)), fc.constant({ toJSON: () => 'x' }), fc.constant(JSON.parse('{"__proto__": 1}') as unknown), fc.constant(1n))
    : fc.jsonValue();
  const part = fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 4 });
  const content = fc.oneof(fc.string(), fc.array(sometimes(part), { maxLength: 3 }));
  const message = fc.record({ role: sometimes(fc.constantFrom(...MESSAGE_ROLES)), content: sometimes(content) });
  const count = fc.oneof({ weight: 10, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom(-0, 2 ** 53, 1.5, -3) });
  const llm = fc.record(
    {
      model: sometimes(fc.string()),
      messages: sometimes(fc.array(sometimes(message), { maxLength: 3 })),
      output: sometimes(fc.string()),
      input_tokens: count,
      output_tokens: count,
      cost: count,
      extra: fc.string(),
    },
    { requiredKeys: ['messages'] },
  );
  const retrieval = fc.record(
    { source: sometimes(fc.string()), input: sometimes(fc.string()), outputs: sometimes(fc.array(sometimes(fc.string()), { maxLength: 3 })) },
    { requiredKeys: ['source'] },
  );
  const embedding = fc.record({ model: sometimes(fc.string()), input: sometimes(fc.string()), input_tokens: count }, { requiredKeys: [] });
  const step = fc.oneof(llm, retrieval, embedding, wrong);
  const feedback = fc.record(
    { slug: sometimes(fc.constantFrom(...FEEDBACK_SLUGS)), text: sometimes(fc.string()), value: sometimes(fc.double()) },
    { requiredKeys: ['slug'] },
  );
  const tags = fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), sometimes(fc.string()), { maxKeys: 4 }), wrong);
  return fc.record({
    input: sometimes(fc.string()),
    output: sometimes(fc.string()),
    tags: maybe(tags),
    featureFlag: maybe(fc.oneof(fc.array(sometimes(fc.string({ maxLength: 3 })), { maxLength: 3 }), wrong)),
    trace: fc.array(step, { maxLength: 4 }),
    feedback: maybe(fc.array(sometimes(feedback), { maxLength: 3 })),
  }).map(
    (parts): InteractionRecord => ({ id: 'i-1', order: 1, timeStart: T0, timeEnd: T0 + 1, ended: true, taken: true, ...parts }) as InteractionRecord,
  );
}

/** The schema's verdict: the wire form and the issues, as the recorder got them before. */
function bySchema(record: InteractionRecord, tags: Record<string, string> | undefined) {
  const issues: Issue[] = [];
  const interaction = wireInteraction(record, tags, issues);
  return { interaction, issues };
}

const conversationTags = fc.option(fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 2 }), { nil: undefined });

describe('the plain check of an ended interaction', () => {
  it('accepts only what the schema accepts, with the same wire output', () => {
    fc.assert(
      fc.property(records(true), conversationTags, (record, tags) => {
        const part = plainPart(record);
        if (part === undefined) return;
        const schema = bySchema(record, tags);
        expect(schema.issues).toEqual([]);
        const plain = wireOf(part, TIMES, tags);
        expect(plain).toStrictEqual(schema.interaction);
        expect(JSON.stringify(plain)).toBe(JSON.stringify(schema.interaction));
      }),
      runParameters(1_500),
    );
  });

  it('accepts, on ordinary JSON data, everything the schema accepts', () => {
    fc.assert(
      fc.property(records(false), (record) => {
        const schema = bySchema(record, undefined);
        const accepted = schema.issues.length === 0 && schema.interaction !== undefined;
        expect(plainPart(record) !== undefined).toBe(accepted);
      }),
      runParameters(1_500),
    );
  });
});
