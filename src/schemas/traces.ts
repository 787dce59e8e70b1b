import * as z from 'zod/mini';
import { nonEmptyString, nonNegativeInt } from './common.js';
import { capIssues } from './issues.js';
import { UNREADABLE } from '../utils/issues.js';
import { jsonValue } from './json.js';
import type { MessageContent, TraceStep, TraceStepInput } from '../types/traces.js';

import { MESSAGE_ROLES } from './wire-fields.js';

export { MESSAGE_ROLES } from './wire-fields.js';

/** Content parts: free-form JSON objects (`{ type: 'text', text }`, images, tool data). */
const contentPartsSchema = z.array(z.record(z.string(), z.unknown()).check(capIssues)).check(capIssues);


/**
 * A string, or content parts, validated on a plain JSON copy taken by {@link jsonValue}
 * (so a getter, Proxy, BigInt, cycle or deep nesting is an issue at its own path, and
 * what is sent cannot change after validation). A plain union would report all of these
 * as "must be a string or an array of content parts", at the content.
 */
const messageContentSchema = z.pipe(
  z.unknown(),
  z.transform((value, ctx) => {
    if (typeof value === 'string') return value;
    const copied = z.safeParse(jsonValue, value);
    const result = copied.success && Array.isArray(copied.data) ? z.safeParse(contentPartsSchema, copied.data) : copied;
    if (result.success && Array.isArray(result.data)) return result.data as MessageContent;
    if (!result.success) {
      for (const issue of result.error.issues) ctx.issues.push({ ...issue, input: value } as z.core.$ZodRawIssue);
      return z.NEVER;
    }
    // Without a message, `invalid_type` reads "is required" for a missing value, and names
    // an unreadable one as such.
    ctx.issues.push({
      code: 'invalid_type',
      expected: 'string',
      input: value,
      ...(value === undefined || value === UNREADABLE ? {} : { message: 'must be a string or an array of content parts' }),
    });
    return z.NEVER;
  }),
) as unknown as z.ZodMiniType<MessageContent, MessageContent>;

/** One message of an LLM step's history, in the chat-completion format. */
export const messageSchema = z.object({
  role: z.enum(MESSAGE_ROLES),
  content: messageContentSchema,
});

/** An intermediate call to an LLM. */
export const llmStepSchema = z.object({
  model: nonEmptyString,
  messages: z.array(messageSchema).check(capIssues),
  output: z.string(),
  input_tokens: z.optional(nonNegativeInt),
  output_tokens: z.optional(nonNegativeInt),
  /** Micro-dollars (1 USD = 1,000,000); overrides the cost the service computes. */
  cost: z.optional(nonNegativeInt),
});

/** A call to a retriever: a vector database, a reader tool, a function-calling tool. */
export const retrievalStepSchema = z.object({
  source: nonEmptyString,
  input: z.string(),
  outputs: z.array(z.string()).check(capIssues),
});

/** A call to an embedding model. */
export const embeddingStepSchema = z.object({
  model: nonEmptyString,
  input: z.string(),
  input_tokens: z.optional(nonNegativeInt),
});

/**
 * The kinds of step in the order that tells them apart without a discriminator on the
 * wire, as the service itself tells them: `source` → retrieval, `messages` → LLM, else embedding.
 */
const TRACE_STEP_KINDS = [retrievalStepSchema, llmStepSchema, embeddingStepSchema] as const;

/**
 * The schema of the kind of step `value` is meant to be, judged by its keys alone (see
 * {@link traceStepSchema}): for what reads a step's fields apart from zod (`unknownKeys`).
 *
 * @example
 * ```ts
 * traceStepKind({ source: 'kb', input: 'q', outputs: [] }); // retrievalStepSchema
 * ```
 */
export function traceStepKind(value: unknown): (typeof TRACE_STEP_KINDS)[number] {
  return TRACE_STEP_KINDS[traceStepBranch(value)];
}

/** Which kind of step a value is meant to be, judged by its keys alone. */
function traceStepBranch(value: unknown): 0 | 1 | 2 {
  if (typeof value === 'object' && value !== null) {
    if ('source' in value) return 0;
    if ('messages' in value) return 1;
  }
  return 2;
}

// The named types of ../types, so that the schema's type and the documented one are one.
export type { TraceStep, TraceStepInput } from '../types/traces.js';

/**
 * One trace step: LLM, retrieval or embedding, told apart by its keys and then validated
 * as that kind alone. A plain union would take the first kind that happens to match (an
 * LLM step with broken `messages` passes as an embedding, its fields stripped) and would
 * report problems at the step instead of at the field (`traces[0].messages[1].role`).
 */
export const traceStepSchema = z.pipe(
  z.unknown(),
  z.transform((value, ctx) => {
    const result = z.safeParse(TRACE_STEP_KINDS[traceStepBranch(value)], value);
    if (result.success) return result.data;
    // Parents prefix these paths with the step's own (`traces[0]`).
    for (const issue of result.error.issues) ctx.issues.push({ ...issue, input: value } as z.core.$ZodRawIssue);
    return z.NEVER;
  }),
) as unknown as z.ZodMiniType<TraceStep, TraceStepInput>;
