/**
 * What the span processor reads of an OpenTelemetry span, structurally: the SDK's
 * `ReadableSpan` of `@opentelemetry/sdk-trace-base` 1.x and 2.x both fit, and this entry
 * loads nothing of OpenTelemetry.
 */

/**
 * A span's identity.
 *
 * @example
 * ```ts
 * const { traceId, spanId }: OtelSpanContext = span.spanContext();
 * ```
 */
export interface OtelSpanContext {
  readonly traceId: string;
  readonly spanId: string;
}

/**
 * An attribute's value, as OpenTelemetry allows it.
 *
 * @example
 * ```ts
 * const model: OtelAttributeValue = span.attributes['gen_ai.request.model'];
 * ```
 */
export type OtelAttributeValue = string | number | boolean | readonly (string | number | boolean | null | undefined)[] | undefined;

/**
 * A span as the OpenTelemetry SDK hands it to a span processor: the `Span` of `onStart`
 * (still open; its attributes may grow) and the `ReadableSpan` of `onEnd`.
 *
 * @example
 * ```ts
 * const read = (span: OtelSpan) => span.attributes['gen_ai.operation.name'];
 * ```
 */
export interface OtelSpan {
  readonly name: string;
  spanContext(): OtelSpanContext;
  /** The parent, in `@opentelemetry/sdk-trace-base` 2.x. */
  readonly parentSpanContext?: OtelSpanContext | undefined;
  /** The parent's id, in `@opentelemetry/sdk-trace-base` 1.x. */
  readonly parentSpanId?: string | undefined;
  readonly attributes: Readonly<Record<string, OtelAttributeValue>>;
  /** `[seconds, nanoseconds]` since the epoch. */
  readonly startTime: readonly [number, number];
  readonly endTime: readonly [number, number];
  /** `code` 2 is an error. */
  readonly status?: { readonly code: number; readonly message?: string | undefined } | undefined;
  /** Which instrumentation made the span (`instrumentationLibrary` in 1.x). */
  readonly instrumentationScope?: { readonly name: string; readonly version?: string | undefined } | undefined;
  readonly instrumentationLibrary?: { readonly name: string; readonly version?: string | undefined } | undefined;
}

/**
 * The attributes of a span.
 *
 * @example
 * ```ts
 * const attributes: Attributes = span.attributes;
 * ```
 */
export type Attributes = OtelSpan['attributes'];

/**
 * The parent span's id, in either SDK major; `undefined` for a root.
 *
 * @example
 * ```ts
 * const parent = open.get(parentIdOf(span) ?? '');
 * ```
 */
export function parentIdOf(span: OtelSpan): string | undefined {
  return span.parentSpanContext?.spanId ?? span.parentSpanId;
}

/**
 * An `[seconds, nanoseconds]` time in epoch milliseconds.
 *
 * @example
 * ```ts
 * epochMs([1_700_000_000, 500_000_000]); // 1_700_000_000_500
 * ```
 */
export function epochMs(time: readonly [number, number]): number {
  return time[0] * 1000 + time[1] / 1e6;
}

/**
 * The instrumentation that made the span: its scope's name.
 *
 * @example
 * ```ts
 * scopeOf(span); // 'ai'
 * ```
 */
export function scopeOf(span: OtelSpan): string {
  return (span.instrumentationScope ?? span.instrumentationLibrary)?.name ?? 'unknown';
}

/**
 * A string attribute, else `undefined` (an empty string counts as none).
 *
 * @example
 * ```ts
 * text({ 'tool.name': 'lookup' }, 'tool.name'); // 'lookup'
 * ```
 */
export function text(attributes: Attributes, key: string): string | undefined {
  const value = attributes[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The first of `keys` that is a string attribute.
 *
 * @example
 * ```ts
 * firstText(attributes, ['gen_ai.response.model', 'gen_ai.request.model']);
 * ```
 */
export function firstText(attributes: Attributes, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const found = text(attributes, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The first of `keys` that is a count (a non-negative integer; a numeric string too).
 *
 * @example
 * ```ts
 * firstCount({ 'llm.token_count.prompt': 25 }, ['gen_ai.usage.input_tokens', 'llm.token_count.prompt']); // 25
 * ```
 */
export function firstCount(attributes: Attributes, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = attributes[key];
    const count = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof count === 'number' && Number.isInteger(count) && count >= 0) return count;
  }
  return undefined;
}

/**
 * A JSON attribute parsed (instrumentations write messages as JSON strings), or the
 * value itself when it is not a string; `undefined` when absent or not JSON.
 */
export function json(attributes: Attributes, key: string): unknown {
  const value = attributes[key];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The values of a flattened list (`llm.input_messages.0.message.role`, `….1.…`): for each
 * index from 0 while `prefix.<index>.<probe>` exists, `read(prefix.<index>.)`.
 */
export function flattened<T>(attributes: Attributes, prefix: string, probe: readonly string[], read: (at: string) => T): T[] {
  const found: T[] = [];
  for (let index = 0; index < 10_000; index += 1) {
    const at = `${prefix}.${index}.`;
    if (!probe.some((key) => attributes[at + key] !== undefined)) break;
    found.push(read(at));
  }
  return found;
}
