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
}

/**
 * The recording path: `interaction()` + `llm()` + `end()` into an open conversation,
 * object literals built at the call as user code does. `conversation.end()` runs after
 * each sample, untimed there and measured on its own, so validation and serialization
 * are seen where they happen.
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
  await bench.run();
  await nebuly.shutdown();
  if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);

  const result = bench.tasks[0]?.result;
  if (result === undefined || !('latency' in result)) throw new Error('the recording benchmark did not complete');
  endSamples.sort((a, b) => a - b);
  return {
    recordNsPerInteraction: Math.round(result.latency.p50 * 1e6),
    recordP99Ns: Math.round(result.latency.p99 * 1e6),
    endNsPerInteraction: Math.round((endSamples[Math.floor(endSamples.length / 2)] ?? Number.NaN) * 1e6),
    samples: result.latency.samplesCount,
  };
}
