import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import * as deprecated from './deprecated-schemas.js';
import * as schemas from './schemas/public.js';

describe("the root's deprecated schemas", () => {
  it('behave as the schemas of nebuly-client/schemas: parsing, nesting, instanceof, shape', () => {
    const valid = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello' };
    expect(z.parse(deprecated.llmStepSchema, valid)).toEqual(z.parse(schemas.llmStepSchema, valid));
    expect(deprecated.llmStepSchema.safeParse({ model: 1 }).error?.issues).toEqual(schemas.llmStepSchema.safeParse({ model: 1 }).error?.issues);
    expect(z.safeParse(z.object({ step: deprecated.llmStepSchema }), { step: valid }).success).toBe(true);
    expect(deprecated.interactionSchema).toBeInstanceOf(z.ZodMiniObject);
    expect(Object.keys(deprecated.interactionSchema.shape)).toEqual(Object.keys(schemas.interactionSchema.shape));
    expect(deprecated.FEEDBACK_SLUGS).toBe(schemas.FEEDBACK_SLUGS);
    expect(deprecated.FILTER_KINDS).toBe(schemas.FILTER_KINDS);
  });
});
