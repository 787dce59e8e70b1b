/**
 * What a span is, in whichever convention its instrumentation wrote: the OTel GenAI
 * semantic conventions (`gen_ai.operation.name`), the AI SDK (`ai.operationId`),
 * OpenInference (`openinference.span.kind`), OpenLLMetry (`llm.request.type`,
 * `traceloop.span.kind`) or Langfuse (`langfuse.observation.type`).
 */
import { type Attributes, text } from './span.js';

/**
 * What a span is to the processor.
 *
 * - `llm`: one model call (an LLM step);
 * - `embedding`: one embedding call;
 * - `tool`: a tool's run (a retrieval step);
 * - `retrieval`: a retriever's query (a retrieval step);
 * - `run`: a run around model calls (an agent, a workflow, `generateText`): an interaction
 *   when outermost, else transparent.
 *
 * @example
 * ```ts
 * const kind: SpanKind | undefined = spanKind(span.attributes);
 * ```
 */
export type SpanKind = 'llm' | 'embedding' | 'tool' | 'retrieval' | 'run';

const AI_SDK: Record<string, SpanKind> = {
  'ai.generateText': 'run',
  'ai.streamText': 'run',
  'ai.generateObject': 'run',
  'ai.streamObject': 'run',
  'ai.embed': 'run',
  'ai.embedMany': 'run',
  'ai.generateText.doGenerate': 'llm',
  'ai.streamText.doStream': 'llm',
  'ai.generateObject.doGenerate': 'llm',
  'ai.streamObject.doStream': 'llm',
  'ai.embed.doEmbed': 'embedding',
  'ai.embedMany.doEmbed': 'embedding',
  'ai.toolCall': 'tool',
};

const GEN_AI: Record<string, SpanKind> = {
  chat: 'llm',
  text_completion: 'llm',
  generate_content: 'llm',
  embeddings: 'embedding',
  execute_tool: 'tool',
  retrieval: 'retrieval',
  invoke_agent: 'run',
  create_agent: 'run',
  invoke_workflow: 'run',
};

const OPEN_INFERENCE: Record<string, SpanKind> = {
  LLM: 'llm',
  EMBEDDING: 'embedding',
  TOOL: 'tool',
  RETRIEVER: 'retrieval',
  AGENT: 'run',
  CHAIN: 'run',
};

/**
 * Langfuse's observation types (`langfuse.observation.type`, `LangfuseObservationType` of
 * `@langfuse/tracing`). `span` is a generic unit of work: a run, recorded only when it
 * holds a model call. `event`, `evaluator` and `guardrail` add no step.
 */
const LANGFUSE: Record<string, SpanKind> = {
  generation: 'llm',
  embedding: 'embedding',
  tool: 'tool',
  retriever: 'retrieval',
  agent: 'run',
  chain: 'run',
  span: 'run',
};

const OPEN_LLMETRY_REQUEST: Record<string, SpanKind> = { chat: 'llm', completion: 'llm', embedding: 'embedding' };
const OPEN_LLMETRY_SPAN: Record<string, SpanKind> = { workflow: 'run', agent: 'run', task: 'run', tool: 'tool' };

const own = (table: Record<string, SpanKind>, key: string | undefined): SpanKind | undefined =>
  key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;

/**
 * The kind of a span from its attributes, `undefined` for a span that is not about AI (an
 * HTTP request, a database query). The AI SDK's own id comes first: its model-call spans
 * also carry `gen_ai.*` attributes.
 *
 * @example
 * ```ts
 * spanKind({ 'gen_ai.operation.name': 'chat' }); // 'llm'
 * ```
 */
export function spanKind(attributes: Attributes): SpanKind | undefined {
  return (
    own(AI_SDK, text(attributes, 'ai.operationId')) ??
    own(GEN_AI, text(attributes, 'gen_ai.operation.name')) ??
    own(OPEN_INFERENCE, text(attributes, 'openinference.span.kind')?.toUpperCase()) ??
    own(OPEN_LLMETRY_REQUEST, text(attributes, 'llm.request.type')) ??
    own(OPEN_LLMETRY_SPAN, text(attributes, 'traceloop.span.kind')) ??
    own(LANGFUSE, text(attributes, 'langfuse.observation.type'))
  );
}
