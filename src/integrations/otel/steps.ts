/**
 * A tree of AI spans (the outermost and the AI spans below it) as the steps of one
 * interaction, in the order the spans started.
 */
import type { EmbeddingStepInput, LLMStepInput, RetrievalStepInput } from '../../schemas/index.js';
import { readableText } from '../readable.js';
import type { Step } from '../record-interaction.js';
import type { SpanKind } from './kind.js';
import { LANGFUSE, langfuseTokens, langfuseValue } from './langfuse.js';
import { inputMessages, outputText } from './messages.js';
import { type Attributes, epochMs, firstCount, firstText, flattened, json, type OtelSpan, text } from './span.js';

/**
 * An ended AI span and the AI spans that ended below it.
 *
 * @example
 * ```ts
 * const node: SpanNode = { span, kind: 'llm', children: [] };
 * ```
 */
export interface SpanNode {
  readonly span: OtelSpan;
  readonly kind: SpanKind;
  readonly children: SpanNode[];
}

/**
 * What reading a tree found: its steps, and the model calls whose content was not captured.
 *
 * @example
 * ```ts
 * const { steps, uncaptured }: ReadSteps = readSteps(root);
 * ```
 */
export interface ReadSteps {
  readonly steps: Step[];
  /** The instrumentation scopes of model calls that carried neither messages nor answer. */
  readonly uncaptured: OtelSpan[];
}

const MODEL = ['gen_ai.response.model', 'ai.response.model', 'gen_ai.request.model', 'ai.model.id', 'llm.model_name', 'embedding.model_name', LANGFUSE.model];
const INPUT_TOKENS = ['gen_ai.usage.input_tokens', 'ai.usage.inputTokens', 'ai.usage.promptTokens', 'llm.token_count.prompt', 'gen_ai.usage.prompt_tokens'];
const OUTPUT_TOKENS = ['gen_ai.usage.output_tokens', 'ai.usage.outputTokens', 'ai.usage.completionTokens', 'llm.token_count.completion', 'gen_ai.usage.completion_tokens'];
const EMBEDDING_TOKENS = ['gen_ai.usage.input_tokens', 'ai.usage.tokens', 'llm.token_count.prompt', 'llm.token_count.total'];

/** The nodes below `node`, depth first, each once. */
function* descendants(node: SpanNode): Generator<SpanNode> {
  for (const child of node.children) {
    yield child;
    yield* descendants(child);
  }
}

const byStart = (a: SpanNode, b: SpanNode) => epochMs(a.span.startTime) - epochMs(b.span.startTime);

/** The attributes of a model call seen in two layers: the outer's, completed by the inner's. */
function merged(node: SpanNode): Attributes {
  const inner = [...descendants(node)].filter((child) => child.kind === node.kind);
  if (inner.length === 0) return node.span.attributes;
  return Object.assign({}, ...inner.reverse().map((child) => child.span.attributes), node.span.attributes) as Attributes;
}

function llmStep(attributes: Attributes): LLMStepInput | 'uncaptured' {
  const messages = inputMessages(attributes);
  const output = outputText(attributes);
  if (messages === undefined && output === undefined) return 'uncaptured';
  const step: LLMStepInput = { model: firstText(attributes, MODEL) ?? 'unknown', messages: messages ?? [], output: output ?? '' };
  const langfuse = langfuseTokens(attributes);
  const inputTokens = firstCount(attributes, INPUT_TOKENS) ?? langfuse.input;
  const outputTokens = firstCount(attributes, OUTPUT_TOKENS) ?? langfuse.output;
  if (inputTokens !== undefined) step.input_tokens = inputTokens;
  if (outputTokens !== undefined) step.output_tokens = outputTokens;
  return step;
}

/** The texts an embedding call embedded, one a line. */
function embeddedText(attributes: Attributes): string | undefined {
  const values = json(attributes, 'ai.values');
  if (Array.isArray(values)) return values.map((value) => readableText(typeof value === 'string' ? (parsed(value) ?? value) : value)).join('\n');
  const value = text(attributes, 'ai.value');
  if (value !== undefined) return readableText(parsed(value) ?? value);
  const openInference = flattened(attributes, 'embedding.embeddings', ['embedding.text'], (at) => text(attributes, `${at}embedding.text`) ?? '');
  if (openInference.length > 0) return openInference.join('\n');
  const langfuse = langfuseValue(attributes, 'input');
  if (langfuse === undefined) return undefined;
  return Array.isArray(langfuse) ? langfuse.map((value) => readableText(value)).join('\n') : readableText(langfuse);
}

function parsed(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function embeddingStep(attributes: Attributes): EmbeddingStepInput | 'uncaptured' {
  const input = embeddedText(attributes);
  if (input === undefined) return 'uncaptured';
  const step: EmbeddingStepInput = { model: firstText(attributes, MODEL) ?? 'unknown', input };
  const tokens = firstCount(attributes, EMBEDDING_TOKENS) ?? langfuseTokens(attributes).input;
  if (tokens !== undefined) step.input_tokens = tokens;
  return step;
}

function toolStep(span: OtelSpan): RetrievalStepInput {
  const attributes = span.attributes;
  const result =
    attributes['gen_ai.tool.call.result'] ?? attributes['ai.toolCall.result'] ?? attributes['output.value'] ?? attributes['traceloop.entity.output'] ?? langfuseValue(attributes, 'output');
  const failed = span.status?.code === 2 ? `[nebuly: call failed (${span.status.message ?? 'error'})]` : undefined;
  return {
    source: firstText(attributes, ['gen_ai.tool.name', 'ai.toolCall.name', 'tool.name', 'traceloop.entity.name']) ?? span.name,
    input: readableText(
      attributes['gen_ai.tool.call.arguments'] ?? attributes['ai.toolCall.args'] ?? attributes['input.value'] ?? attributes['traceloop.entity.input'] ?? langfuseValue(attributes, 'input') ?? '',
    ),
    outputs: [failed ?? readableText(result ?? '')],
  };
}

function retrievalStep(span: OtelSpan): RetrievalStepInput {
  const attributes = span.attributes;
  const documents = flattened(attributes, 'retrieval.documents', ['document.content', 'document.id'], (at) => text(attributes, `${at}document.content`) ?? '');
  const genAi = json(attributes, 'gen_ai.retrieval.documents');
  const langfuse = langfuseValue(attributes, 'output');
  const listed = Array.isArray(genAi) ? genAi : Array.isArray(langfuse) ? langfuse : [];
  const outputs = documents.length > 0 ? documents : listed.map((document) => readableText(document));
  const langfuseInput = langfuseValue(attributes, 'input');
  return {
    source: firstText(attributes, ['gen_ai.data_source.id', 'db.system', 'traceloop.entity.name']) ?? span.name,
    input: firstText(attributes, ['gen_ai.retrieval.query.text', 'input.value', 'traceloop.entity.input']) ?? (langfuseInput === undefined ? '' : readableText(langfuseInput)),
    outputs: outputs.length > 0 ? outputs : [firstText(attributes, ['output.value', 'traceloop.entity.output']) ?? (langfuse === undefined ? '' : readableText(langfuse))],
  };
}

/**
 * The steps of a tree, in the order their spans started: each model call an LLM step
 * (a call seen in two layers, an SDK's span and a provider instrumentation's inside it,
 * once: the outer, completed by the inner), each embedding call an embedding step, each
 * tool run and retrieval a retrieval step; runs in between add nothing of their own.
 * Model calls without content are left out and returned apart.
 *
 * @example
 * ```ts
 * const { steps, uncaptured } = readSteps(root);
 * ```
 */
export function readSteps(root: SpanNode): ReadSteps {
  const steps: Step[] = [];
  const uncaptured: OtelSpan[] = [];
  const visit = (node: SpanNode) => {
    switch (node.kind) {
      case 'llm': {
        const step = llmStep(merged(node));
        if (step === 'uncaptured') uncaptured.push(node.span);
        else steps.push({ kind: 'llm', step });
        // Tools and retrievals a model call's span holds (rare) still count; model calls were merged.
        for (const child of [...node.children].sort(byStart)) if (child.kind !== 'llm') visit(child);
        return;
      }
      case 'embedding': {
        const step = embeddingStep(merged(node));
        if (step === 'uncaptured') uncaptured.push(node.span);
        else steps.push({ kind: 'embedding', step });
        return;
      }
      case 'tool':
        steps.push({ kind: 'retrieval', step: toolStep(node.span) });
        break;
      case 'retrieval':
        steps.push({ kind: 'retrieval', step: retrievalStep(node.span) });
        break;
      case 'run':
        break;
    }
    for (const child of [...node.children].sort(byStart)) visit(child);
  };
  visit(root);
  return { steps, uncaptured };
}
