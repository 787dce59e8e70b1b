/** The real OpenTelemetry SDK with a NebulySpanProcessor, as an app sets it up. */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NebulyClient, type NebulyError } from 'nebuly-client';
import { createReferenceHandler } from 'nebuly-client/reference-server';
import { NebulySpanProcessor, type NebulySpanProcessorOptions } from 'nebuly-client/otel';
import { CONVERSATIONS_PATH } from '../nebuly.js';

// Spans nest through the active context, as under NodeTracerProvider.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

type Conversation = { end_user: string; interactions: Record<string, unknown>[] };

/**
 * A tracer provider whose spans go to a NebulySpanProcessor (and to an in-memory exporter,
 * to see what the instrumentation emitted), over a client wired to the reference server
 * whose `info` log lines and `onError` reports are kept.
 */
export function tracing(options: Omit<NebulySpanProcessorOptions, 'nebuly'> = {}) {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const errors: NebulyError[] = [];
  const info: string[] = [];
  const ignore = () => {};
  const nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://nebuly.reference.test',
    fetch: (input, init) => reference.fetch(new Request(input, init)),
    onError: (error) => errors.push(error),
    logLevel: 'info',
    logger: { error: ignore, warn: ignore, debug: ignore, info: (message) => info.push(message) },
  });
  const processor = new NebulySpanProcessor({ nebuly, ...options });
  const exported = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(exported)] });
  return {
    nebuly,
    errors,
    info,
    processor,
    provider,
    exported,
    tracer: provider.getTracer('test'),
    /** The conversations the server received, as parsed wire bodies, in arrival order. */
    sent: (): Conversation[] =>
      reference.requests.all({ path: CONVERSATIONS_PATH }).map((request) => (JSON.parse(request.body) as { conversation: Conversation }).conversation),
  };
}
