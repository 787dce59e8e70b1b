/**
 * The cost of `observeOpenAI`: the same calls through the unwrapped and the observed
 * OpenAI client, in the same run, one of each in turn, over a `fetch` that answers from
 * memory so that no network is measured.
 *
 * Overhead = lower quartile observed − lower quartile unwrapped. Other processes only ever
 * add time to a sample, and on a shared machine they add it to most multi-millisecond
 * samples (a stream's median moves by 20 µs per chunk between runs); the lower quartile is
 * what the code costs when left alone. Calls alternate one by one, not in batches, so both
 * kinds see the same conditions. Medians are reported beside.
 */
import OpenAI from 'openai';
import { benchClient, DIST, type Sdk } from './sdk.js';

type OpenAIModule = typeof import('../src/integrations/openai.js');

/** Non-streamed calls of each kind, timed one by one. */
const CALLS = 3000;
/** Streamed calls of each kind: short streams, so that few of them are interrupted. */
const STREAMS = 1000;
/** Calls recorded per conversation before it is sent and replaced. */
const PER_CONVERSATION = 50;
/** Chunks of the streamed answer. */
const CHUNKS = 50;

/** Quartiles of the timed calls, µs per call or per chunk. */
export interface Timing {
  p25: number;
  median: number;
  p75: number;
}

export interface IntegrationResult {
  /** µs per non-streamed `chat.completions.create`, through the unwrapped and the observed client. */
  plainCallUs: Timing;
  observedCallUs: Timing;
  /** µs the observation adds to one non-streamed call (lower quartiles). */
  overheadUsPerCall: number;
  /** µs per chunk of a streamed call (`CHUNKS` chunks), unwrapped and observed. */
  plainChunkUs: Timing;
  observedChunkUs: Timing;
  /** µs the observation adds per streamed chunk, the call's own overhead spread over them (lower quartiles). */
  overheadUsPerChunk: number;
  chunksPerStream: number;
  calls: number;
  streams: number;
}

const encoder = new TextEncoder();

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Parental leave is 16 weeks in the first year (section 4.2).', refusal: null },
      finish_reason: 'stop',
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 81, completion_tokens: 17, total_tokens: 98 },
});

const STREAM = encoder.encode(
  [
    ...Array.from({ length: CHUNKS }, (_, n) =>
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'gpt-4o-mini-2024-07-18',
        choices: [{ index: 0, delta: { content: `word${n} ` }, finish_reason: null, logprobs: null }],
      }),
    ),
    '[DONE]',
  ]
    .map((data) => `data: ${data}\n\n`)
    .join(''),
);

/** The provider, from memory: the same bytes for every call, no socket. */
const memoryFetch: typeof fetch = async (_input, init) => {
  const streamed = typeof init?.body === 'string' && init.body.includes('"stream":true');
  if (!streamed) return new Response(COMPLETION, { status: 200, headers: { 'content-type': 'application/json' } });
  return new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(STREAM);
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
};

const MESSAGES = [
  { role: 'system' as const, content: 'You are the assistant of an HR help desk. Answer from the handbook only.' },
  { role: 'user' as const, content: 'What does the handbook say about parental leave in the first year?' },
];

/** Quartiles of durations in ms, as µs per `per` (call or chunk). */
export function timing(valuesMs: number[], per = 1): Timing {
  const sorted = [...valuesMs].sort((a, b) => a - b);
  const at = (q: number) => Number((((sorted[Math.floor(sorted.length * q)] ?? Number.NaN) * 1000) / per).toFixed(2));
  return { p25: at(0.25), median: at(0.5), p75: at(0.75) };
}

export async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function benchIntegrations(sdk: Sdk): Promise<IntegrationResult> {
  const { observeOpenAI } = (await import(new URL('openai.js', DIST).href)) as OpenAIModule;
  const { nebuly, errors } = benchClient(sdk);
  const plain = new OpenAI({ apiKey: 'bench-key', baseURL: 'http://provider.bench/v1', fetch: memoryFetch, maxRetries: 0 });
  // Each observed call is an interaction of its own in the conversation, as a chatbot
  // backend records them; the conversation is replaced (and sent) between samples.
  let conversation = nebuly.startConversation({ end_user: 'bench-user' });
  let observed = observeOpenAI(plain, { conversation });
  const nextConversation = async () => {
    await conversation.end();
    await nebuly.flush(); // its delivery done before the next batch is timed
    conversation = nebuly.startConversation({ end_user: 'bench-user' });
    observed = observeOpenAI(plain, { conversation });
  };

  const call = (client: OpenAI) => client.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
  const stream = async (client: OpenAI) => {
    let text = '';
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true })) {
      text += chunk.choices[0]?.delta.content ?? '';
    }
    return text;
  };

  // Warm-up: both paths compiled before anything is timed.
  for (let i = 0; i < 200; i += 1) {
    await call(plain);
    await call(observed);
    if (i % 4 === 0) {
      await stream(plain);
      await stream(observed);
    }
  }
  await nextConversation();

  const plainCalls: number[] = [];
  const observedCalls: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    plainCalls.push(await time(() => call(plain)));
    observedCalls.push(await time(() => call(observed)));
    if ((i + 1) % PER_CONVERSATION === 0) await nextConversation();
  }
  const plainStreams: number[] = [];
  const observedStreams: number[] = [];
  for (let i = 0; i < STREAMS; i += 1) {
    plainStreams.push(await time(() => stream(plain)));
    observedStreams.push(await time(() => stream(observed)));
    if ((i + 1) % PER_CONVERSATION === 0) await nextConversation();
  }
  await conversation.end();
  await nebuly.shutdown();
  if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);

  const plainCallUs = timing(plainCalls);
  const observedCallUs = timing(observedCalls);
  const plainChunkUs = timing(plainStreams, CHUNKS);
  const observedChunkUs = timing(observedStreams, CHUNKS);
  return {
    plainCallUs,
    observedCallUs,
    overheadUsPerCall: Number((observedCallUs.p25 - plainCallUs.p25).toFixed(2)),
    plainChunkUs,
    observedChunkUs,
    overheadUsPerChunk: Number((observedChunkUs.p25 - plainChunkUs.p25).toFixed(2)),
    chunksPerStream: CHUNKS,
    calls: CALLS,
    streams: STREAMS,
  };
}
