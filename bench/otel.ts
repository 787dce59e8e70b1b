/**
 * The cost of `NebulySpanProcessor` per span call: the same traces through the real OTel
 * SDK with and without it, one of each in turn. A trace is what the AI SDK emits for a
 * `generateText` with one tool call (a run span, two model-call spans with their messages,
 * a tool span: 4 spans), so that what is measured includes reading the attributes and
 * recording the interaction.
 *
 * Overhead per span = (lower quartile with − lower quartile without) / spans per trace: the
 * processor's `onStart` and `onEnd` of one span, amortised over the trace. Lower quartiles
 * for the reason bench/integrations.ts gives; medians beside.
 */
import { performance } from 'node:perf_hooks';
import { context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { Timing } from './overhead.js';
import { benchClient, DIST, type Sdk } from './sdk.js';

type OtelModule = typeof import('../src/integrations/otel/index.js');

const TRACES = 5000;
const SPANS_PER_TRACE = 4;
/** Traces recorded per conversation before it is sent and replaced. */
const PER_CONVERSATION = 50;

export interface OtelResult {
  /** µs per trace of 4 spans, without and with the processor. */
  plainTraceUs: Timing;
  observedTraceUs: Timing;
  /** µs the processor adds per span (its onStart and onEnd), lower quartiles. */
  overheadUsPerSpan: number;
  spansPerTrace: number;
  traces: number;
}

const PROMPT = JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'How long is parental leave?' }] }]);

/** One AI SDK-shaped trace: ai.generateText > doGenerate, toolCall, doGenerate. */
function trace(tracer: Tracer, session: string): void {
  const metadata = { 'ai.telemetry.metadata.userId': 'user-1', 'ai.telemetry.metadata.sessionId': session };
  tracer.startActiveSpan('ai.generateText', { attributes: { 'ai.operationId': 'ai.generateText', 'ai.prompt': '{"prompt":"How long is parental leave?"}', ...metadata } }, (root) => {
    const call = (text: string) => {
      const span = tracer.startSpan('ai.generateText.doGenerate', {
        attributes: { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.model.id': 'gpt-4o', 'ai.prompt.messages': PROMPT, ...metadata },
      });
      span.setAttributes({ 'ai.response.text': text, 'gen_ai.response.model': 'gpt-4o-2024-08-06', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 18 });
      span.end();
    };
    call('');
    const tool = tracer.startSpan('ai.toolCall', { attributes: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'policy', 'ai.toolCall.args': '{"topic":"leave"}' } });
    tool.setAttribute('ai.toolCall.result', '"16 weeks"');
    tool.end();
    call('Parental leave is 16 weeks in the first year (section 4.2).');
    root.setAttribute('ai.response.text', 'Parental leave is 16 weeks in the first year (section 4.2).');
    root.end();
  });
}

function quartiles(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Number(((sorted[Math.floor(q * (sorted.length - 1))] ?? 0) * 1000).toFixed(2));
  return { p25: at(0.25), median: at(0.5), p75: at(0.75) };
}

export async function benchOtel(sdk: Sdk): Promise<OtelResult> {
  const { NebulySpanProcessor } = (await import(new URL('otel.js', DIST).href)) as OtelModule;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const { nebuly, errors } = benchClient(sdk);
  const plain = new BasicTracerProvider().getTracer('bench');
  const observed = new BasicTracerProvider({ spanProcessors: [new NebulySpanProcessor({ nebuly })] }).getTracer('bench');

  // Warm both paths up before timing.
  for (let index = 0; index < 500; index += 1) {
    trace(plain, 'warm');
    trace(observed, `warm-${index % 10}`);
  }
  await nebuly.shutdown();
  const { nebuly: measured, errors: measuredErrors } = benchClient(sdk);
  const tracer = new BasicTracerProvider({ spanProcessors: [new NebulySpanProcessor({ nebuly: measured })] }).getTracer('bench');

  const plainMs: number[] = [];
  const observedMs: number[] = [];
  for (let index = 0; index < TRACES; index += 1) {
    const session = `session-${Math.floor(index / PER_CONVERSATION)}`;
    let start = performance.now();
    trace(plain, session);
    plainMs.push(performance.now() - start);
    start = performance.now();
    trace(tracer, session);
    observedMs.push(performance.now() - start);
  }
  await measured.shutdown();
  if (errors.length + measuredErrors.length > 0) throw new Error(`the processor reported: ${[...errors, ...measuredErrors][0]?.message}`);

  const plainTraceUs = quartiles(plainMs);
  const observedTraceUs = quartiles(observedMs);
  return {
    plainTraceUs,
    observedTraceUs,
    overheadUsPerSpan: Number(((observedTraceUs.p25 - plainTraceUs.p25) / SPANS_PER_TRACE).toFixed(2)),
    spansPerTrace: SPANS_PER_TRACE,
    traces: TRACES,
  };
}
