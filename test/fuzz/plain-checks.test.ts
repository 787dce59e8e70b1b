/**
 * The recorder's checks written without zod (src/schemas/plain-checks.ts) against the
 * schemas they stand for: on any value, both accept or both refuse, with the same output
 * and the same issues (paths, messages, codes), as `toIssues` words zod's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { safeParseInput } from '../../src/core/validate.js';
import { checkStartFields } from '../../src/recorder/start.js';
import { conversationFeedbackActionSchema, FEEDBACK_SLUGS } from '../../src/schemas/index.js';
import { checkFeedbackAction, Found } from '../../src/schemas/plain-checks.js';
import { nonEmptyString, tags } from '../../src/schemas/common.js';
import { UNREADABLE } from '../../src/utils/issues.js';
import { revoked, runParameters } from './hostile.js';

const startSchema = z.object({ end_user: nonEmptyString, tags: z.optional(tags), conversation_id: z.optional(nonEmptyString) });

/** Stands for a revoked Proxy, made in the property: fast-check cannot hold one. */
const REVOKED = Symbol('revoked');
const real = (given: unknown) => (given === REVOKED ? revoked() : given);

class Tagged {
  plan = 'pro';
}

/** Values of every kind a caller might pass where a string or tags go. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('', 'u', 'user-1', ' ', undefined, null, 0, 1.5, Number.NaN, true, UNREADABLE, [], ['a'], new Map(), new Date(0), { length: 0 }, { length: '2' }, { length: null }),
  fc.string(),
  fc.anything({ maxDepth: 2 }),
  fc.constant(Symbol('s')),
  fc.constant(10n),
  fc.constant(REVOKED),
);

/** Tags as callers get them wrong: values that are no strings, symbol keys, camelCase twins, odd prototypes. */
const tagsValue: fc.Arbitrary<unknown> = fc.oneof(
  value,
  fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('plan_name', 'planName', '__proto__', '0', 'constructor')), value, { maxKeys: 6 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 4 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 4 }).map((entries) => Object.assign(Object.create(null) as object, entries)),
  fc.constant({ plan_name: undefined, planName: 'pro' }),
  fc.constant({ [Symbol('k')]: 'v', a: 'b' }),
  fc.constant({ constructor: 5, a: 'b' }),
  fc.constant(new Tagged()),
  fc.constant(JSON.parse('{"__proto__": "x", "a": 1}') as unknown),
  fc.array(fc.constant('v'), { maxLength: 130 }).map((items) => Object.fromEntries(items.map((_, index) => [`k${index}`, index]))),
  fc.constant(REVOKED),
);

describe('the plain checks agree with the schemas', () => {
  it('start parameters: the same acceptance, output and issues as zod', () => {
    fc.assert(
      fc.property(value, tagsValue, fc.oneof(value, fc.constant(undefined)), (end_user, given, conversation_id) => {
        const read = { end_user: real(end_user), tags: real(given), conversation_id: real(conversation_id) };
        const plain = checkStartFields(read);
        const zod = safeParseInput(startSchema, read);
        expect(plain.success).toBe(zod.success);
        if (plain.success && zod.success) {
          expect(plain.data.end_user).toBe(zod.data.end_user);
          expect(plain.data.conversation_id).toBe(zod.data.conversation_id);
          expect(plain.data.tags).toEqual(zod.data.tags);
          if (plain.data.tags !== undefined) expect(Object.keys(plain.data.tags)).toEqual(Object.keys(zod.data.tags ?? {}));
        }
        if (!plain.success && !zod.success) expect(plain.issues).toEqual(zod.issues);
      }),
      runParameters(2_000),
    );
  });

  it('feedback actions: the same acceptance, output and issues as zod', () => {
    const slug = fc.oneof(fc.constantFrom(...FEEDBACK_SLUGS), value);
    const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Infinity, -Infinity, undefined), value);
    fc.assert(
      fc.property(slug, fc.oneof(fc.string(), value), number, (given, text, rated) => {
        const read = { slug: real(given), text: real(text), value: real(rated) };
        const found = new Found(read);
        const plain = checkFeedbackAction(read, [], found);
        const zod = safeParseInput(conversationFeedbackActionSchema, read);
        expect(plain !== undefined).toBe(zod.success);
        if (plain !== undefined && zod.success) expect(JSON.stringify(Object.entries(plain))).toBe(JSON.stringify(Object.entries(zod.data)));
        if (!zod.success) expect(found.issues).toEqual(zod.issues);
      }),
      runParameters(2_000),
    );
  });
});
