import { PostHog } from 'posthog-node';
import { Bench } from 'tinybench';
import { interactionData } from './fixtures.js';
import { benchClient, type Sdk } from './sdk.js';

/** Interactions recorded per timed sample; the sample is their mean. */
const BATCH = 200;

export interface RecordResult {
  /** Median ns to record one interaction with one LLM step into an open conversation. */
  recordNsPerInteraction: number;
  recordP99Ns: number;
  /** Median ns per interaction of `conversation.end()`'s synchronous part: validation, serialization. */
  endNsPerInteraction: number;
  samples: number;
  /** Median ns of posthog-node's `capture()` of the same interaction as one `$ai_generation` event. */
  posthogCaptureNs: number;
  /** `recordNsPerInteraction` over `posthogCaptureNs`, measured in the same run. */
  recordVsPosthogCapture: number;
}

/**
 * posthog-node as an application would make it, but with nothing sent while a sample is
 * timed: events are batched until `flush()` (flushAt and the batch and queue bounds far
 * above a sample; the interval timer an hour), which runs between samples, into a fetch
 * that accepts at once. Its `capture()` then does what ours does on the caller's path:
 * take the event, and queue it for a background send.
 */
function benchPosthog(): PostHog {
  return new PostHog('phc_bench', {
    host: 'http://127.0.0.1:9',
    flushAt: 100_000,
    maxBatchSize: 100_000,
    maxQueueSize: 100_000,
    flushInterval: 3_600_000,
    disableGeoip: true,
    fetch: async () => ({ status: 200, text: async () => '{}', json: async () => ({}), headers: { get: () => null } }),
  });
}

/**
 * The recording path: `interaction()` + `llm()` + `end()` into an open conversation,
 * object literals built at the call as user code does. `conversation.end()` runs after
 * each sample, untimed there and measured on its own, so validation and serialization
 * are seen where they happen. Then, in the same run and with the same data, posthog-node's
 * `capture()` of one `$ai_generation` event per interaction (its properties: the model,
 * the two messages, the answer, the token counts, the tags): both are timed on the
 * caller's path only, each deferring its sending to work after the sample.
 */
export async function benchRecording(sdk: Sdk): Promise<RecordResult> {
  const { nebuly, errors } = benchClient(sdk);
  const data = Array.from({ length: BATCH }, (_, n) => interactionData(n));
  const endSamples: number[] = [];
  let conversation = nebuly.startConversation({ end_user: 'bench-user', tags: { plan: 'pro' } });

  const bench = new Bench({ iterations: 400, time: 0, warmupIterations: 50, warmupTime: 0 });
  bench.add(
    'record one interaction (LLM step, 2-message history, tags)',
    () => {
      const started = performance.now();
      for (let i = 0; i < BATCH; i += 1) {
        const d = data[i] as (typeof data)[number];
        const turn = conversation.interaction({ input: d.input, tags: d.tags });
        turn.llm({
          model: d.model,
          messages: [d.messages[0] as (typeof d.messages)[number], d.messages[1] as (typeof d.messages)[number]],
          output: d.output,
          input_tokens: d.input_tokens,
          output_tokens: d.output_tokens,
        });
        turn.end({ output: d.output });
      }
      const elapsed = performance.now() - started;
      return { overriddenDuration: elapsed / BATCH, overriddenIterationCost: elapsed };
    },
    {
      beforeEach() {
        conversation = nebuly.startConversation({ end_user: 'bench-user', tags: { plan: 'pro' } });
      },
      async afterEach() {
        const started = performance.now();
        const outcome = conversation.end();
        endSamples.push((performance.now() - started) / BATCH);
        if ((await outcome).status !== 'delivered') throw new Error('the benchmark conversation was not delivered');
      },
    },
  );
  const posthog = benchPosthog();
  bench.add(
    'posthog-node capture of the same interaction ($ai_generation event)',
    () => {
      const started = performance.now();
      for (let i = 0; i < BATCH; i += 1) {
        const d = data[i] as (typeof data)[number];
        posthog.capture({
          distinctId: 'bench-user',
          event: '$ai_generation',
          properties: {
            $ai_trace_id: `trace-${i}`,
            $ai_model: d.model,
            $ai_input: [d.messages[0] as (typeof d.messages)[number], d.messages[1] as (typeof d.messages)[number]],
            $ai_output_choices: [{ role: 'assistant', content: d.output }],
            $ai_input_tokens: d.input_tokens,
            $ai_output_tokens: d.output_tokens,
            plan: 'pro',
            ...d.tags,
          },
        });
      }
      const elapsed = performance.now() - started;
      return { overriddenDuration: elapsed / BATCH, overriddenIterationCost: elapsed };
    },
    {
      async afterEach() {
        await posthog.flush();
      },
    },
  );
  await bench.run();
  await nebuly.shutdown();
  await posthog.shutdown();
  if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);

  const [result, captured] = bench.tasks.map((task) => task.result);
  if (result === undefined || !('latency' in result)) throw new Error('the recording benchmark did not complete');
  if (captured === undefined || !('latency' in captured)) throw new Error('the posthog-node benchmark did not complete');
  endSamples.sort((a, b) => a - b);
  const recordNsPerInteraction = Math.round(result.latency.p50 * 1e6);
  const posthogCaptureNs = Math.round(captured.latency.p50 * 1e6);
  return {
    recordNsPerInteraction,
    recordP99Ns: Math.round(result.latency.p99 * 1e6),
    endNsPerInteraction: Math.round((endSamples[Math.floor(endSamples.length / 2)] ?? Number.NaN) * 1e6),
    samples: result.latency.samplesCount,
    posthogCaptureNs,
    recordVsPosthogCapture: recordNsPerInteraction / posthogCaptureNs,
  };
}
