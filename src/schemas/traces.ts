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
 * The branches of {@link traceStepSchema}, in the order that tells them apart without a
 * discriminator on the wire: `source` → retrieval, `messages` → LLM, else embedding.
 */
const TRACE_STEP_BRANCHES = [retrievalStepSchema, llmStepSchema, embeddingStepSchema] as const;

/**
 * Which branch of {@link traceStepSchema} a value is meant to be, judged by its shape.
 * Used to report the problems of that branch alone when a step is invalid.
 */
export function traceStepBranch(value: unknown): 0 | 1 | 2 {
  if (typeof value === 'object' && value !== null) {
    if ('source' in value) return 0;
    if ('messages' in value) return 1;
  }
  return 2;
}

/** One trace step: LLM, retrieval or embedding, told apart by its fields alone. */
export const traceStepSchema = z.union(TRACE_STEP_BRANCHES);
