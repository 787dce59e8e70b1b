/**
 * `nebuly-client/otel`: OpenTelemetry GenAI spans recorded in Nebuly, whatever made them
 * (the AI SDK's telemetry, OpenLLMetry, OpenInference, the GenAI instrumentations).
 * See docs/integrations.md, "OpenTelemetry".
 *
 * @example
 * ```ts
 * import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
 * import { NebulyClient } from 'nebuly-client';
 * import { NebulySpanProcessor } from 'nebuly-client/otel';
 *
 * const nebuly = new NebulyClient();
 * const provider = new NodeTracerProvider({ spanProcessors: [new NebulySpanProcessor({ nebuly })] });
 * provider.register();
 * ```
 *
 * @module nebuly-client/otel
 */
export { NebulySpanProcessor, type NebulySpanProcessorOptions, type SpanResolver } from './processor.js';
export { CONVERSATION_ID_ATTRIBUTES, END_USER_ATTRIBUTES, defaultConversationId, defaultEndUser } from './identity.js';
export type { OtelAttributeValue, OtelSpan, OtelSpanContext } from './span.js';
