/**
 * `NebulySpanProcessor`: OpenTelemetry spans of AI calls, whatever instrumentation made
 * them, recorded as Nebuly interactions.
 */
import { clientParts, NebulyClient } from '../../client.js';
import { NebulyError } from '../../core/nebuly-error.js';
import { insideRecordedCall, markSpan, takeSpanMark } from '../call-marks.js';
import { diagnoseOnce } from '../diagnostics.js';
import { defaultConversationId, defaultEndUser } from './identity.js';
import { runInput, runOutput } from './messages.js';
import { recordInteraction } from '../record-interaction.js';
import { spanKind } from './kind.js';
import { isLangfuseSpan } from './langfuse.js';
import { epochMs, type OtelSpan, parentIdOf, scopeOf } from './span.js';
import { readSteps, type SpanNode } from './steps.js';

/**
 * Resolves something about a span tree from one of its spans; `undefined`: not this one.
 *
 * @example
 * ```ts
 * const endUser: SpanResolver = (span) => span.attributes['app.customer'] as string | undefined;
 * ```
 */
export type SpanResolver = (span: OtelSpan) => string | undefined;

/**
 * The options of {@link NebulySpanProcessor}.
 *
 * @example
 * ```ts
 * const options: NebulySpanProcessorOptions = { nebuly, endUser: (span) => span.attributes['app.user'] as string | undefined };
 * ```
 */
export interface NebulySpanProcessorOptions {
  /** The client whose recorder the interactions go to. */
  nebuly: NebulyClient;
  /**
   * The end user of a span tree. Called with the outermost AI span, then the spans below
   * it in the order they started, until one gives a non-empty string. Default: the first
   * of `user.id`, `enduser.id`, `ai.telemetry.metadata.userId` (and `user_id`, `endUser`,
   * `end_user`), `traceloop.association.properties.user_id` (and `userId`). A tree without
   * an end user is not recorded (told once at `info`).
   */
  endUser?: SpanResolver | undefined;
  /**
   * The conversation a span tree belongs to, found as `endUser` is. Default: the first of
   * `gen_ai.conversation.id`, `session.id`, `ai.telemetry.metadata.conversationId` (and
   * `conversation_id`, `sessionId`, `session_id`),
   * `traceloop.association.properties.conversation_id` (and `session_id`, `sessionId`).
   * Trees with the same id are interactions of one conversation, ended by the idle
   * time-out or `nebuly.shutdown()`; a tree without one is a conversation of its own.
   */
  conversationId?: SpanResolver | undefined;
  /** How many started spans are followed at most (spans never ended are let go first). Default 10 000. */
  maxOpenSpans?: number | undefined;
}

/** A span between its start and its end, with the AI spans that ended below it. */
interface OpenSpan {
  readonly span: OtelSpan;
  readonly parentId: string | undefined;
  readonly children: SpanNode[];
  /** A wrapper records a model call in it (call-marks.ts): its trace is left to that wrapper. */
  wrapped: boolean;
}

/**
 * An OpenTelemetry `SpanProcessor` that records GenAI spans in Nebuly: the outermost AI
 * span of a trace (a `generateText`, an agent run, or a lone model call) is one
 * interaction; each model call below it an LLM step, each embedding call an embedding
 * step, each tool run (`execute_tool`) and retrieval a retrieval step, in the order they
 * started. It reads the OTel GenAI semantic conventions (`gen_ai.*`), the AI SDK's `ai.*`
 * attributes, OpenInference and OpenLLMetry. A model call seen in two layers (the AI
 * SDK's span and a provider instrumentation's inside it) is recorded once; a trace holding a
 * model call that an integration of this package records too (`observeOpenAI`,
 * `nebulyMiddleware`…) is left to that integration. Span times
 * become the interactions' times. Model calls whose content the instrumentation did not
 * capture are left out, and told once (at `info`, through the client's logger).
 *
 * Its methods never throw into the tracer: faults go to the client's `onError`.
 * `forceFlush()` and `shutdown()` are the client's `flush()` and `shutdown()`.
 *
 * @example
 * ```ts
 * import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
 * import { NebulySpanProcessor } from 'nebuly-client/otel';
 *
 * const provider = new BasicTracerProvider({ spanProcessors: [new NebulySpanProcessor({ nebuly })] });
 * // AI SDK: generateText({ …, experimental_telemetry: { isEnabled: true, tracer: provider.getTracer('ai'),
 * //   metadata: { userId: userHash, sessionId: chatId } } })
 * ```
 */
export class NebulySpanProcessor {
  readonly #nebuly: NebulyClient;
  readonly #endUser: SpanResolver;
  readonly #conversationId: SpanResolver;
  readonly #maxOpenSpans: number;
  readonly #open = new Map<string, OpenSpan>();
  #closed = false;

  /** @throws TypeError naming the option that is wrong. */
  constructor(options: NebulySpanProcessorOptions) {
    if (typeof options !== 'object' || options === null) throw new TypeError('nebuly-client/otel: new NebulySpanProcessor({ nebuly }) takes an options object.');
    if (!(options.nebuly instanceof NebulyClient)) throw new TypeError('nebuly-client/otel: `nebuly` must be a NebulyClient.');
    for (const name of ['endUser', 'conversationId'] as const) {
      if (options[name] !== undefined && typeof options[name] !== 'function') {
        throw new TypeError(`nebuly-client/otel: \`${name}\`, when given, must be a function (span) => string | undefined.`);
      }
    }
    const max = options.maxOpenSpans ?? 10_000;
    if (!Number.isInteger(max) || max < 1) throw new TypeError('nebuly-client/otel: `maxOpenSpans` must be a positive integer.');
    this.#nebuly = options.nebuly;
    this.#endUser = options.endUser ?? defaultEndUser;
    this.#conversationId = options.conversationId ?? defaultConversationId;
    this.#maxOpenSpans = max;
  }

  /** Follows a started span, to know later which AI span holds which. */
  onStart(span: OtelSpan, _parentContext?: unknown): void {
    if (this.#closed) return;
    try {
      if (this.#open.size >= this.#maxOpenSpans) {
        const oldest = this.#open.keys().next().value;
        if (oldest !== undefined) this.#open.delete(oldest);
      }
      const spanId = span.spanContext().spanId;
      // Started inside a call a wrapper records (an instrumentation of the provider's client
      // under observeOpenAI): the wrapper's record is the one kept.
      if (insideRecordedCall()) markSpan(spanId);
      this.#open.set(spanId, { span, parentId: parentIdOf(span), children: [], wrapped: false });
    } catch (error) {
      this.#fault(error);
    }
  }

  /** An ended AI span joins the AI span that holds it; the outermost is recorded. */
  onEnd(span: OtelSpan): void {
    if (this.#closed) return;
    try {
      const id = span.spanContext().spanId;
      const open = this.#open.get(id);
      this.#open.delete(id);
      const kind = spanKind(span.attributes);
      // A model call (or a run) in which a wrapper records a call, however deep: the whole
      // tree is the wrapper's, so that neither the call nor the tool runs around it are
      // recorded twice. A tool's span that was active around a wrapped call is a tool run
      // that made a call of its own: its tree stays the processor's.
      const marked = takeSpanMark(id) && (kind === 'llm' || kind === 'embedding' || kind === 'run');
      const wrapped = marked || open?.wrapped === true;
      const holder = this.#aiAncestor(open?.parentId ?? parentIdOf(span));
      if (wrapped && holder !== undefined) holder.wrapped = true;
      if (kind === undefined) return;
      const node: SpanNode = { span, kind, children: open?.children ?? [] };
      if (holder !== undefined) holder.children.push(node);
      else if (!wrapped) this.#record(node);
    } catch (error) {
      this.#fault(error);
    }
  }

  /** The client's `flush()`: what was recorded is sent. */
  async forceFlush(): Promise<void> {
    await this.#nebuly.flush();
  }

  /** Stops recording and shuts the client down (ends what is open, sends it all). */
  async shutdown(): Promise<void> {
    this.#closed = true;
    this.#open.clear();
    await this.#nebuly.shutdown();
  }

  /** The nearest open AI span above `parentId`, through spans of other kinds. */
  #aiAncestor(parentId: string | undefined): OpenSpan | undefined {
    let current = parentId === undefined ? undefined : this.#open.get(parentId);
    for (let depth = 0; current !== undefined && depth < 1000; depth += 1) {
      if (spanKind(current.span.attributes) !== undefined) return current;
      current = current.parentId === undefined ? undefined : this.#open.get(current.parentId);
    }
    return undefined;
  }

  #record(root: SpanNode): void {
    const { steps, uncaptured } = readSteps(root);
    for (const span of uncaptured) this.#uncaptured(span);
    const trees = [root, ...allBelow(root)].map((node) => node.span);
    const endUser = resolve(this.#endUser, trees);
    if (endUser === undefined) {
      diagnoseOnce(
        this.#nebuly,
        'no_end_user',
        'otel',
        'nebuly-client/otel: a trace of AI spans has no end user (no `user.id` or `ai.telemetry.metadata.userId` attribute…): not recorded. Set one, or pass `endUser` to NebulySpanProcessor.',
      );
      return;
    }
    if (steps.length === 0 && uncaptured.length > 0 && root.kind !== 'run') return;
    // A Langfuse `span` observation is any unit of work: an interaction only when it made a model call.
    if (isLangfuseSpan(root.span.attributes) && !steps.some((step) => step.kind === 'llm' || step.kind === 'embedding')) return;
    recordInteraction(this.#nebuly, {
      endUser,
      conversationId: resolve(this.#conversationId, trees),
      input: root.kind === 'llm' ? undefined : runInput(root.span.attributes),
      output: root.kind === 'llm' ? undefined : (streamedText(root) ?? runOutput(root.span.attributes)),
      steps,
      startMs: epochMs(root.span.startTime),
      endMs: epochMs(root.span.endTime),
    });
  }

  #uncaptured(span: OtelSpan): void {
    const scope = scopeOf(span);
    diagnoseOnce(
      this.#nebuly,
      'content_not_captured',
      scope,
      `nebuly-client/otel: model calls traced by ${scope} carry no messages and no answer (content capture is off): they are left out. ` +
        'Turn content capture on (the AI SDK: recordInputs/recordOutputs; GenAI instrumentations: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true).',
    );
  }

  #fault(error: unknown): void {
    try {
      const message = error instanceof Error ? error.message : String(error);
      const fault = new NebulyError(`nebuly-client/otel: recording a span failed: ${message} (the traced code was not affected)`, { cause: error });
      clientParts(this.#nebuly)?.report(fault);
    } catch {
      // Nowhere left to report it; the tracer goes on.
    }
  }
}

/** Every node below `node`, in start order. */
function allBelow(node: SpanNode): SpanNode[] {
  const found: SpanNode[] = [];
  const visit = (current: SpanNode) => {
    for (const child of current.children) {
      found.push(child);
      visit(child);
    }
  };
  visit(node);
  return found.sort((a, b) => epochMs(a.span.startTime) - epochMs(b.span.startTime));
}

/**
 * What an AI SDK `streamText` showed: its `textStream`, the text of every step one after
 * the other (its own `ai.response.text` is the last step's). `undefined` for other runs.
 */
function streamedText(root: SpanNode): string | undefined {
  if (root.span.attributes['ai.operationId'] !== 'ai.streamText') return undefined;
  const steps = allBelow(root).filter((node) => node.span.attributes['ai.operationId'] === 'ai.streamText.doStream');
  if (steps.length === 0) return undefined;
  return steps.map((node) => {
    const text = node.span.attributes['ai.response.text'];
    return typeof text === 'string' ? text : '';
  }).join('');
}

/** The first non-empty answer of `resolver` over `spans`; what it throws counts as none. */
function resolve(resolver: SpanResolver, spans: readonly OtelSpan[]): string | undefined {
  for (const span of spans) {
    try {
      const found = resolver(span);
      if (typeof found === 'string' && found.trim() !== '') return found;
    } catch {
      // A resolver that throws on one span may still answer for another.
    }
  }
  return undefined;
}


