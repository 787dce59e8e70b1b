import * as z from 'zod/mini';
import { nonEmptyString, nonNegativeInt } from './common.js';

/** Roles of a chat-completion message. */
export const MESSAGE_ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/** One message of an LLM step's history, in the chat-completion format. */
export const messageSchema = z.object({
  role: z.enum(MESSAGE_ROLES),
  content: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))], {
    error: 'must be a string or an array of content parts',
  }),
});

/** An intermediate call to an LLM. */
export const llmStepSchema = z.object({
  model: nonEmptyString,
  messages: z.array(messageSchema),
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
  outputs: z.array(z.string()),
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

/** Which kind of step a value is meant to be, judged by its keys alone. */
export function traceStepBranch(value: unknown): 0 | 1 | 2 {
  if (typeof value === 'object' && value !== null) {
    if ('source' in value) return 0;
    if ('messages' in value) return 1;
  }
  return 2;
}

/** A trace step as accepted. */
export type TraceStepInput =
  | z.input<typeof llmStepSchema>
  | z.input<typeof retrievalStepSchema>
  | z.input<typeof embeddingStepSchema>;

/** A trace step as sent. */
export type TraceStep =
  | z.output<typeof llmStepSchema>
  | z.output<typeof retrievalStepSchema>
  | z.output<typeof embeddingStepSchema>;

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
