/**
 * Which model calls a wrapper records, so that every other layer that sees the same call
 * leaves it alone: a client observed twice (`observeOpenAI(observeOpenAI(client))`), and
 * an OpenTelemetry span of a call that a wrapper (the provider clients' proxies, the AI
 * SDK's middleware) records too, which the span processor then skips.
 *
 * Kept on `globalThis` under a registered symbol: two copies of the package in one process
 * (its ESM and CommonJS builds, or two versions) still see each other's marks.
 */

/** The shared state: how deep in wrapped calls the code runs now, and the spans wrappers record. */
interface Marks {
  depth: number;
  /** Span ids, oldest first, bounded by {@link MAX_MARKED_SPANS}. */
  readonly spans: Set<string>;
}

const MARKS_KEY = Symbol.for('nebuly-client.call-marks');
/** Marks of spans whose end the processor never saw are let go past this many. */
const MAX_MARKED_SPANS = 10_000;

function marks(): Marks {
  const scope = globalThis as { [MARKS_KEY]?: Marks };
  let found = scope[MARKS_KEY];
  if (found === undefined) {
    found = { depth: 0, spans: new Set() };
    scope[MARKS_KEY] = found;
  }
  return found;
}

/**
 * @internal Runs `call` (the provider's method, called synchronously) as a call a wrapper
 * records: a layer that starts inside it (a second proxy, an OpenTelemetry instrumentation
 * whose span starts within) sees {@link insideRecordedCall} true.
 * @example
 * ```ts
 * const result = recordedCall(() => original.apply(resource, args));
 * ```
 */
export function recordedCall<Result>(call: () => Result): Result {
  const state = marks();
  state.depth += 1;
  try {
    return call();
  } finally {
    state.depth -= 1;
  }
}

/**
 * @internal Whether the code runs synchronously inside a call a wrapper records.
 * @example
 * ```ts
 * if (insideRecordedCall()) return original.apply(resource, args); // the outer layer records it
 * ```
 */
export function insideRecordedCall(): boolean {
  return marks().depth > 0;
}

/**
 * @internal Marks a span as recorded by a wrapper: the span processor leaves its trace out.
 * @example
 * ```ts
 * markSpan(span.spanContext().spanId);
 * ```
 */
export function markSpan(spanId: string): void {
  const { spans } = marks();
  if (spans.size >= MAX_MARKED_SPANS) {
    const oldest = spans.values().next().value;
    if (oldest !== undefined) spans.delete(oldest);
  }
  spans.add(spanId);
}

/**
 * @internal Whether a wrapper recorded the call of this span; forgets the mark (a span ends once).
 * @example
 * ```ts
 * if (takeSpanMark(span.spanContext().spanId)) return; // recorded by the wrapper
 * ```
 */
export function takeSpanMark(spanId: string): boolean {
  return marks().spans.delete(spanId);
}

/** The OpenTelemetry API's global registry (`@opentelemetry/api` 1.x), as far as it is read. */
interface OtelGlobal {
  readonly context?: { active?: () => { getValue?: (key: symbol) => unknown } | undefined } | undefined;
}

/**
 * @internal Marks the OpenTelemetry span active now (the AI SDK's model-call span that
 * holds a middleware's call), when an OpenTelemetry API is registered in the process.
 * Read through the API's global registry (`Symbol.for('opentelemetry.js.api.1')`, and
 * the span's context key `Symbol.for('OpenTelemetry Context Key SPAN')`, both fixed by
 * `@opentelemetry/api` 1.x), so that no integration loads OpenTelemetry. Never throws.
 * @example
 * ```ts
 * markActiveSpan(); // in a middleware's wrapGenerate
 * ```
 */
export function markActiveSpan(): void {
  try {
    const api = (globalThis as Record<symbol, OtelGlobal | undefined>)[Symbol.for('opentelemetry.js.api.1')];
    const span = api?.context?.active?.()?.getValue?.(Symbol.for('OpenTelemetry Context Key SPAN')) as
      | { spanContext?: () => { spanId?: unknown } }
      | undefined;
    const spanId = span?.spanContext?.().spanId;
    if (typeof spanId === 'string') markSpan(spanId);
  } catch {
    // No span to mark: the processor, if any, records the call as well.
  }
}
