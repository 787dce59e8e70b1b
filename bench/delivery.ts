import ky from 'ky';
import type { NebulyError } from '../src/core/errors.js';
import { interactionData } from './fixtures.js';
import { DIST, type Sdk } from './sdk.js';
import { SINK_API_KEY as API_KEY, SINK_PATH as PATH, startSink } from './sink-process.js';

const CONVERSATIONS = 1_000;
const TURNS = 5;
const CONCURRENCY = 4;
const ROUNDS = 7;

export interface DeliveryResult {
  /** Median plain-fetch time over median SDK time: 1 is as fast as fetch. */
  deliveryRatioVsFetch: number;
  /**
   * The client's CPU per delivered conversation (record, validate, serialize, send) over
   * a plain fetch loop's CPU per request posting the same bodies: 1 costs what fetch does.
   */
  cpuPerConversationVsFetch: number;
  sdkMs: number[];
  fetchMs: number[];
  /** Client CPU per conversation in each SDK round, µs (user + system, every thread). */
  sdkCpuUs: number[];
  /** Client CPU per request in each fetch round, µs. */
  fetchCpuUs: number[];
  /**
   * The same bodies posted by ky over fetch, as the typed client sends on runtimes
   * without `node:http` (no retries or time-out of ky's; ky's `Request` handed to
   * fetch), over plain fetch: what ky adds there. The recorder does not go through ky.
   */
  kyCpuVsFetch: number;
  kyCpuUs: number[];
  /**
   * The sink's CPU per request in each SDK and fetch round, µs: a sink near a whole core
   * (its CPU per request close to the round's wall time per request) limits both sides alike.
   */
  sinkCpuUs: { sdk: number[]; fetch: number[] };
  conversations: number;
  interactionsPerConversation: number;
  concurrency: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** One round: its wall time, and the CPU per conversation of this process and of the sink, µs. */
interface Round {
  ms: number;
  cpuUs: number;
  sinkCpuUs: number;
}

/**
 * The bodies the SDK sent are what the service accepts: each parses as JSON and passes
 * the wire schema of the build under test (its `nebuly-client/schemas`), with every
 * interaction. The sink does not check them, so that checking costs the timed rounds nothing.
 */
async function checkBodies(bodies: readonly string[]): Promise<void> {
  const { sendConversationParamsSchema } = (await import(new URL('schemas.js', DIST).href)) as typeof import('../src/schemas/public.js');
  for (const body of bodies) {
    const parsed = sendConversationParamsSchema.safeParse(JSON.parse(body));
    if (!parsed.success) throw new Error(`the SDK sent a body the service refuses: ${parsed.error.message}`);
    if (parsed.data.conversation.interactions.length !== TURNS) throw new Error(`the SDK sent ${parsed.data.conversation.interactions.length} of ${TURNS} interactions`);
  }
}

/** CPU time of this process since `from`, µs. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from);
  return user + system;
}

/**
 * Delivery against the reference server, which runs in another process: the SDK
 * records, ends and delivers CONVERSATIONS conversations (from the first
 * `startConversation` to `flush()`: recording, validation, serialization and sending all
 * count); a plain fetch loop with the same concurrency posts the very bodies the SDK
 * sent, already serialized. Rounds alternate so that both see the same machine state;
 * each gives its wall time and this process's CPU time.
 */
export async function benchDelivery(sdk: Sdk): Promise<DeliveryResult> {
  const sink = await startSink();
  const errors: NebulyError[] = [];
  const nebuly = new sdk.NebulyClient({
    apiKey: API_KEY,
    baseUrl: sink.url,
    onError: (error) => errors.push(error),
    recorder: { maxConcurrentSends: CONCURRENCY, idleTimeoutMs: 0 },
  });
  const data = Array.from({ length: CONVERSATIONS * TURNS }, (_, n) => interactionData(n));

  async function sdkRound(): Promise<Round> {
    await sink.call('clear');
    const cpu = process.cpuUsage();
    const started = performance.now();
    const outcomes = [];
    for (let c = 0; c < CONVERSATIONS; c += 1) {
      const conversation = nebuly.startConversation({ end_user: `user-${c}`, tags: { plan: 'pro' } });
      for (let t = 0; t < TURNS; t += 1) {
        const d = data[c * TURNS + t] as (typeof data)[number];
        const turn = conversation.interaction({ input: d.input, tags: d.tags });
        turn.llm({ model: d.model, messages: d.messages, output: d.output, input_tokens: d.input_tokens, output_tokens: d.output_tokens });
        turn.end({ output: d.output });
      }
      outcomes.push(conversation.end());
    }
    await nebuly.flush();
    const ms = performance.now() - started;
    const cpuUs = cpuSince(cpu) / CONVERSATIONS;
    const sinkCpuUs = (await sink.call<{ cpuUs: number }>('cpu')).cpuUs / CONVERSATIONS;
    const delivered = (await Promise.all(outcomes)).filter((outcome) => outcome.status === 'delivered').length;
    if (delivered !== CONVERSATIONS) throw new Error(`the SDK delivered ${delivered} of ${CONVERSATIONS}`);
    return { ms, cpuUs, sinkCpuUs };
  }

  const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', accept: 'application/json' };
  const post = {
    fetch: (url: string, body: string) => fetch(url, { method: 'POST', headers, body }),
    ky: (url: string, body: string) =>
      ky(url, {
        method: 'POST',
        headers,
        body,
        retry: 0,
        timeout: false,
        throwHttpErrors: false,
        redirect: 'manual',
      }),
  };

  async function fetchRound(bodies: readonly string[], via: keyof typeof post): Promise<Round> {
    await sink.call('clear');
    const url = sink.url + PATH;
    let next = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++] as string;
          const response = await post[via](url, body);
          await response.text();
          if (response.status !== 202) throw new Error(`${via} got ${response.status}`);
        }
      }),
    );
    const ms = performance.now() - started;
    const cpuUs = cpuSince(cpu) / bodies.length;
    return { ms, cpuUs, sinkCpuUs: (await sink.call<{ cpuUs: number }>('cpu')).cpuUs / bodies.length };
  }

  try {
    await sdkRound(); // warm-up, and the bodies fetch will post
    const { bodies } = await sink.call<{ bodies: string[] }>('bodies');
    if (bodies.length !== CONVERSATIONS) throw new Error(`the sink logged ${bodies.length} of ${CONVERSATIONS} bodies`);
    await checkBodies(bodies);
    await fetchRound(bodies, 'fetch');
    await fetchRound(bodies, 'ky');
    const sdk: Round[] = [];
    const plain: Round[] = [];
    const viaKy: Round[] = [];
    // Each measured round follows an unmeasured one of the same side, so that each side
    // is measured in its own steady state: the garbage a round leaves is collected, and
    // counted, in the next one, and a round after the other side's ran slower on what
    // that side had left in the caches and the heap (±30 % on fetch alone).
    for (let round = 0; round < ROUNDS; round += 1) {
      await fetchRound(bodies, 'fetch');
      plain.push(await fetchRound(bodies, 'fetch'));
      await sdkRound();
      sdk.push(await sdkRound());
      await fetchRound(bodies, 'ky');
      viaKy.push(await fetchRound(bodies, 'ky'));
    }
    if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);
    const cpu = (rounds: typeof sdk) => rounds.map((round) => Math.round(round.cpuUs));
    const sinkCpu = (rounds: typeof sdk) => rounds.map((round) => Math.round(round.sinkCpuUs));
    const ms = (rounds: typeof sdk) => rounds.map((round) => Math.round(round.ms));
    return {
      deliveryRatioVsFetch: median(ms(plain)) / median(ms(sdk)),
      cpuPerConversationVsFetch: median(cpu(sdk)) / median(cpu(plain)),
      kyCpuVsFetch: median(cpu(viaKy)) / median(cpu(plain)),
      sdkMs: ms(sdk),
      fetchMs: ms(plain),
      sdkCpuUs: cpu(sdk),
      fetchCpuUs: cpu(plain),
      kyCpuUs: cpu(viaKy),
      sinkCpuUs: { sdk: sinkCpu(sdk), fetch: sinkCpu(plain) },
      conversations: CONVERSATIONS,
      interactionsPerConversation: TURNS,
      concurrency: CONCURRENCY,
    };
  } finally {
    await nebuly.shutdown();
    sink.child.send('close');
  }
}
