/**
 * The role of a chat-completion message.
 *
 * @example
 * ```ts
 * const role: MessageRole = 'assistant';
 * ```
 */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/**
 * A message's content as accepted and sent: text, or the provider's array of content
 * parts (plain JSON, nested at most 100 levels deep).
 *
 * @example
 * ```ts
 * const parts: MessageContent = [{ type: 'text', text: 'What is in this picture?' }];
 * ```
 */
export type MessageContent = string | Record<string, unknown>[];

/**
 * One message of an LLM step's history, in the chat-completion format of the common LLM
 * providers.
 *
 * @example
 * ```ts
 * const message: Message = { role: 'user', content: 'Can I change my flight?' };
 * ```
 */
export interface Message {
  /** Who wrote the message. */
  role: MessageRole;
  /** The message's content: text, or the provider's array of content parts. */
  content: MessageContent;
}

/**
 * An intermediate call to an LLM (the spec's LLMTrace), as accepted and as sent.
 *
 * @example
 * ```ts
 * const step: LLMStep = {
 *   model: 'gpt-4o-mini',
 *   messages: [{ role: 'user', content: 'Hi' }],
 *   output: 'Hello!',
 *   input_tokens: 9,
 *   output_tokens: 3,
 * };
 * ```
 */
export interface LLMStep {
  /** The LLM used. */
  model: string;
  /** The conversation so far, oldest message first. */
  messages: Message[];
  /** The LLM's output message. */
  output: string;
  /** How many input tokens the call used. */
  input_tokens?: number | undefined;
  /** How many output tokens the call produced. */
  output_tokens?: number | undefined;
  /**
   * The call's cost in micro-dollars (1 USD = 1,000,000), a whole number, zero or more
   * (see `usdToMicroDollars`); overrides the cost the service computes from the model and
   * the token counts.
   */
  cost?: number | undefined;
}

/**
 * An LLM step as accepted: the same as {@link LLMStep}.
 *
 * @example
 * ```ts
 * turn.llm({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!' } satisfies LLMStepInput);
 * ```
 */
export type LLMStepInput = LLMStep;

/**
 * A call to a retriever (the spec's RetrievalTrace): a vector database, a reader tool, an
 * agent's function-calling tool. As accepted and as sent.
 *
 * @example
 * ```ts
 * const step: RetrievalStep = { source: 'fares-kb', input: 'change fee', outputs: ['Free until 24h before.'] };
 * ```
 */
export interface RetrievalStep {
  /** The kind of data source used, e.g. a database reader tool or a vector database. */
  source: string;
  /** The query sent to the source. */
  input: string;
  /** What the source answered; a list, since one query may return several outputs. */
  outputs: string[];
}

/**
 * A retrieval step as accepted: the same as {@link RetrievalStep}.
 *
 * @example
 * ```ts
 * turn.retrieval({ source: 'kb', input: 'fee', outputs: ['Free.'] } satisfies RetrievalStepInput);
 * ```
 */
export type RetrievalStepInput = RetrievalStep;

/**
 * A call to an embedding model (the spec's EmbeddingTrace), as accepted and as sent.
 *
 * @example
 * ```ts
 * const step: EmbeddingStep = { model: 'text-embedding-3-small', input: 'change fee', input_tokens: 3 };
 * ```
 */
export interface EmbeddingStep {
  /** The embedding model used. */
  model: string;
  /** The text that was embedded. */
  input: string;
  /** How many input tokens the call used. */
  input_tokens?: number | undefined;
}

/**
 * An embedding step as accepted: the same as {@link EmbeddingStep}.
 *
 * @example
 * ```ts
 * turn.embedding({ model: 'text-embedding-3-small', input: 'fee' } satisfies EmbeddingStepInput);
 * ```
 */
export type EmbeddingStepInput = EmbeddingStep;

/**
 * One step of a trace. The wire has no type field: a step with `source` is a retrieval,
 * one with `messages` an LLM call, any other an embedding.
 *
 * @example
 * ```ts
 * const trace: TraceStep[] = [
 *   { source: 'fares-kb', input: 'change fee', outputs: ['Free until 24h before.'] },
 *   { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!' },
 * ];
 * ```
 */
export type TraceStep = LLMStep | RetrievalStep | EmbeddingStep;

/**
 * A trace step as accepted: the same as {@link TraceStep}.
 *
 * @example
 * ```ts
 * const traces: TraceStepInput[] = [{ source: 'kb', input: 'fee', outputs: ['Free.'] }];
 * ```
 */
export type TraceStepInput = TraceStep;
