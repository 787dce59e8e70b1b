import ky from 'ky';
import type { NebulyError } from '../src/core/errors.js';
import { interactionData } from './fixtures.js';
import type { ReferenceServerModule, Sdk } from './sdk.js';

const CONVERSATIONS = 300;
const TURNS = 4;
const CONCURRENCY = 4;
const ROUNDS = 5;
const API_KEY = 'bench-key';
const PROJECT = 'bench';
const PATH = '/event-ingestion/api/v2/events/trace_conversation';

export interface DeliveryResult {
  /** Median plain-fetch time over median SDK time: 1 is as fast as fetch. */
  deliveryRatioVsFetch: number;
  sdkMs: number[];
  fetchMs: number[];
  /**
   * The same bodies posted with ky alone, configured as the client's HTTP core configures
   * it (retries, per-attempt time-out), over plain fetch: what the transport itself costs.
   */
  kyRatioVsFetch: number;
  kyMs: number[];
  conversations: number;
  interactionsPerConversation: number;
  concurrency: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Delivery throughput against the reference server: the SDK records, ends and delivers
 * CONVERSATIONS conversations (time from the first `startConversation` to `flush()`
 * resolving: recording, validation, serialization and sending all count); a plain fetch
 * loop with the same concurrency posts the very bodies the SDK sent, already serialized.
 * Rounds alternate so that both see the same machine state.
 */
export async function benchDelivery(sdk: Sdk, reference: ReferenceServerModule): Promise<DeliveryResult> {
  const server = await reference.createReferenceServer({
    apiKeys: { [API_KEY]: PROJECT },
    maxRecordedRequests: CONVERSATIONS,
  });
  const errors: NebulyError[] = [];
  const nebuly = new sdk.NebulyClient({
    apiKey: API_KEY,
    baseUrl: server.url,
    onError: (error) => errors.push(error),
    recorder: { maxConcurrentSends: CONCURRENCY, idleTimeoutMs: 0 },
  });
  const data = Array.from({ length: CONVERSATIONS * TURNS }, (_, n) => interactionData(n));

  async function sdkRound(): Promise<{ ms: number; bodies: string[] }> {
    server.store.clear();
    server.requests.clear();
    const started = performance.now();
    for (let c = 0; c < CONVERSATIONS; c += 1) {
      const conversation = nebuly.startConversation({ end_user: `user-${c}` });
      for (let t = 0; t < TURNS; t += 1) {
        const d = data[c * TURNS + t] as (typeof data)[number];
        const turn = conversation.interaction({ input: d.input, tags: d.tags });
        turn.llm({ model: d.model, messages: d.messages, output: d.output, input_tokens: d.input_tokens, output_tokens: d.output_tokens });
        turn.end({ output: d.output });
      }
      void conversation.end();
    }
    await nebuly.flush();
    const ms = performance.now() - started;
    const accepted = server.requests.all().filter((request) => request.path === PATH && request.status === 202);
    if (accepted.length !== CONVERSATIONS) throw new Error(`the SDK delivered ${accepted.length} of ${CONVERSATIONS}`);
    return { ms, bodies: accepted.map((request) => request.body) };
  }

  const kyClient = ky.create({
    headers: { accept: 'application/json', authorization: `Bearer ${API_KEY}` },
    timeout: 30_000,
    retry: { limit: 2, methods: ['post'], statusCodes: [408, 429, 500, 502, 503, 504] },
  });
  const post = {
    fetch: (url: string, body: string) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', accept: 'application/json' },
        body,
      }),
    ky: (url: string, body: string) => kyClient.post(url, { body, headers: { 'content-type': 'application/json' } }),
  };

  async function fetchRound(bodies: readonly string[], via: keyof typeof post = 'fetch'): Promise<number> {
    server.store.clear();
    server.requests.clear();
    const url = server.url + PATH;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++] as string;
          const response = await post[via](url, body);
          await response.text();
          if (!response.ok) throw new Error(`fetch got ${response.status}`);
        }
      }),
    );
    return performance.now() - started;
  }

  try {
    const { bodies } = await sdkRound(); // warm-up, and the bodies fetch will post
    await fetchRound(bodies);
    const sdkMs: number[] = [];
    const fetchMs: number[] = [];
    const kyMs: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      fetchMs.push(await fetchRound(bodies));
      sdkMs.push((await sdkRound()).ms);
      kyMs.push(await fetchRound(bodies, 'ky'));
    }
    if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);
    return {
      kyRatioVsFetch: median(fetchMs) / median(kyMs),
      kyMs: kyMs.map((ms) => Math.round(ms)),
      deliveryRatioVsFetch: median(fetchMs) / median(sdkMs),
      sdkMs: sdkMs.map((ms) => Math.round(ms)),
      fetchMs: fetchMs.map((ms) => Math.round(ms)),
      conversations: CONVERSATIONS,
      interactionsPerConversation: TURNS,
      concurrency: CONCURRENCY,
    };
  } finally {
    await nebuly.shutdown();
    await server.close();
  }
}
