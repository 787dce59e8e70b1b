/**
 * One side of bench/node-http-sender.ts, in a process of its own so that the heap it
 * samples is that side's alone. Both sides record the same conversations at the same
 * pace (`perTurn` conversations of TURNS turns, then a turn of the event loop: 1 as a
 * server ends one per request, more for a burst) and deliver them to the sink:
 *
 * - `sdk`: the recorder of the build under test (`startConversation`, `interaction`,
 *   `end`; the default memory store and `maxConcurrentSends`), then `await nebuly.flush()`;
 * - `http`: a minimal sender written by hand: each conversation's turns kept as plain
 *   objects, serialized at its end into the body the recorder sends (v2
 *   trace_conversation, the same headers) and posted at once through a keep-alive
 *   `http.Agent`, at most `concurrency` at a time, the rest waiting in a queue.
 *
 * Answers a {@link SideResult} over IPC. Run by bench/node-http-sender.ts:
 *
 *   node --expose-gc --import tsx bench/node-http-sender-child.ts sdk|http <sink url> <conversations> <concurrency> <perTurn>
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { NebulyError } from '../src/core/errors.js';
import { interactionData, type InteractionData } from './fixtures.js';
import { collectGarbage, heapAndExternal, peakSampler } from './heap.js';
import { loadSdk } from './sdk.js';
import { SINK_API_KEY, SINK_PATH } from './sink-process.js';

/** Turns per conversation. */
const TURNS = 5;
/** Conversations recorded and delivered before the measured run, by both sides alike. */
const WARM_UP = 200;
/** How often the heap is sampled, ms. */
const SAMPLE_MS = 5;

/** Which side a child measures. */
export type Side = 'sdk' | 'http';

/** What one side measured, in one process. */
export interface SideResult {
  side: Side;
  conversations: number;
  /** Conversations ended between two turns of the event loop. */
  perTurn: number;
  turns: number;
  /** Conversations delivered (the SDK: as `flush()` counted them); the sender delivers all or fails. */
  delivered: number;
  /** Conversations the SDK handed to `onError`, by error name. */
  reported: Record<string, number>;
  /**
   * Client CPU (user + system, every thread) per delivered conversation, µs, without the
   * CPU spent making the test data (measured around it; the application's, not the client's).
   */
  cpuUsPerConversation: number;
  /** The same, of the main thread alone (what the host's event loop waits for); NaN off Linux. */
  mainThreadUsPerConversation: number;
  /** Making each conversation's test data (fresh strings, as from a request or an LLM API), µs per conversation. */
  dataUsPerConversation: number;
  /** The largest heapUsed + external seen, bytes, garbage not yet collected included. */
  peakBytes: number;
  /** heapUsed + external after the warm-up and a full collection, bytes. */
  baselineBytes: number;
  /** From the first conversation started to the last delivered, ms. */
  wallMs: number;
  /** From the last conversation ended to the last delivered (the SDK: `flush()` resolving), ms. */
  lagMs: number;
  samples: number;
}

const tags = { plan: 'pro' };
const endUser = (c: number) => `user-${c}`;
const [side, url, conversations, concurrency, perTurnArgument] = process.argv.slice(2);
const perTurn = Number(perTurnArgument ?? 1);

/** A turn of the event loop after every `perTurn` conversations, the `n`th just ended. */
const paced = (n: number) => (n % perTurn === perTurn - 1 ? new Promise<void>((resolve) => setImmediate(resolve)) : undefined);

/**
 * The data of conversation `c`'s turns, made as it starts: fresh strings that the
 * application lets go once recorded, so that what a side keeps of them shows on its heap.
 */
function conversationData(c: number): InteractionData[] {
  return Array.from({ length: TURNS }, (_, t) => interactionData(c * TURNS + t));
}

/**
 * The CPU of making `count` conversations' data, µs: measured apart, after the run,
 * and left out of its CPU. Not measured around each conversation: process.cpuUsage()
 * costs up to tens of µs on a busy machine (every thread of the process is summed).
 */
function dataCpuUs(count: number): Cpu {
  collectGarbage();
  let made = 0;
  const from = cpuNow();
  for (let c = 0; c < count; c += 1) made += conversationData(c).length;
  const used = cpuSince(from);
  if (made !== count * TURNS) throw new Error('the data was not made');
  return used;
}

/** CPU time, µs: of the whole process (every thread: the collector's, libuv's), and of its main thread alone. */
interface Cpu {
  all: number;
  main: number;
}

/**
 * The main thread's CPU time, µs, from /proc (Linux; in clock ticks of 10 ms, a few
 * hundred over a run), NaN elsewhere: Node 20 has no `process.threadCpuUsage()`.
 */
function mainThreadUs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

function cpuNow(): Cpu {
  const { user, system } = process.cpuUsage();
  return { all: user + system, main: mainThreadUs() };
}

function cpuSince(from: Cpu): Cpu {
  const now = cpuNow();
  return { all: now.all - from.all, main: now.main - from.main };
}

/** What a run of conversations came to: when the last ended, and how many were delivered. */
interface Run {
  lastEnded: number;
  delivered: number;
}

/**
 * Sampling, timing and CPU around `run(count)`, which records and delivers `count`
 * conversations, after a warm-up that must deliver all of its own.
 */
async function measure(side: Side, count: number, run: (count: number, sample: () => void) => Promise<Run>): Promise<SideResult> {
  const warm = await run(WARM_UP, () => undefined);
  if (warm.delivered !== WARM_UP) throw new Error(`the ${side} side delivered ${warm.delivered} of the ${WARM_UP} of its warm-up`);
  collectGarbage();
  const baselineBytes = heapAndExternal();
  const peak = peakSampler(SAMPLE_MS);
  const from = cpuNow();
  const started = performance.now();
  const { lastEnded, delivered } = await run(count, peak.sample);
  const finished = performance.now();
  const used = cpuSince(from);
  const peakBytes = peak.stop();
  const making = dataCpuUs(count);
  return {
    side,
    conversations: count,
    delivered,
    reported: {},
    perTurn,
    turns: TURNS,
    cpuUsPerConversation: (used.all - making.all) / delivered,
    mainThreadUsPerConversation: (used.main - making.main) / delivered,
    dataUsPerConversation: making.all / count,
    peakBytes,
    baselineBytes,
    wallMs: finished - started,
    lagMs: finished - lastEnded,
    samples: peak.samples(),
  };
}

async function sdkSide(url: string, count: number): Promise<SideResult> {
  const sdk = await loadSdk();
  // Counted, not kept: a QueueFullError holds the payloads it refused.
  const reported: Record<string, number> = {};
  const onError = (error: NebulyError) => {
    const conversations = error instanceof sdk.QueueFullError ? error.conversations.length : 1;
    reported[error.name] = (reported[error.name] ?? 0) + conversations;
  };
  const nebuly = new sdk.NebulyClient({ apiKey: SINK_API_KEY, baseUrl: url, onError });
  let offset = 0;
  const result = await measure('sdk', count, async (n, sample) => {
    let lastEnded = 0;
    for (let c = offset; c < offset + n; c += 1) {
      const conversation = nebuly.startConversation({ end_user: endUser(c), tags });
      for (const d of conversationData(c)) {
        const turn = conversation.interaction({ input: d.input, tags: d.tags });
        turn.llm({ model: d.model, messages: d.messages, output: d.output, input_tokens: d.input_tokens, output_tokens: d.output_tokens });
        turn.end({ output: d.output });
      }
      // Its outcome is counted by flush(); holding 10,000 promises would weigh on the heap measured.
      void conversation.end();
      lastEnded = performance.now();
      sample();
      await paced(c - offset);
    }
    const { delivered } = await nebuly.flush();
    offset += n;
    return { lastEnded, delivered };
  });
  await nebuly.shutdown();
  return { ...result, reported };
}

/** An interaction of the v2 body, in the recorder's field order. */
interface WireInteraction {
  input: string;
  output: string;
  time_start: string;
  time_end: string;
  tags: Record<string, string>;
  feedback_actions: never[];
  trace: { model: string; messages: InteractionData['messages']; output: string; input_tokens: number; output_tokens: number }[];
}

/**
 * The hand-written sender: a queue of bodies, at most `concurrency` posts in flight over
 * one keep-alive agent; `submit` posts at once when a slot is free.
 */
function nodeHttpSender(url: string, concurrency: number) {
  const agent = new http.Agent({ keepAlive: true });
  const target = new URL(SINK_PATH, url);
  const queue: string[] = [];
  let head = 0;
  let inFlight = 0;
  let delivered = 0;
  let failure: Error | undefined;
  let waiter: { count: number; resolve: () => void; reject: (error: Error) => void } | undefined;

  const settle = () => {
    if (waiter === undefined) return;
    if (failure !== undefined) waiter.reject(failure);
    else if (delivered >= waiter.count) waiter.resolve();
    else return;
    waiter = undefined;
  };
  const post = (body: string) => {
    inFlight += 1;
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${SINK_API_KEY}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          inFlight -= 1;
          if (response.statusCode === 202) delivered += 1;
          else failure ??= new Error(`the sink answered ${response.statusCode}: ${text}`);
          pump();
          settle();
        });
      },
    );
    request.on('error', (error) => {
      failure ??= error;
      settle();
    });
    request.end(body);
  };
  const pump = () => {
    while (inFlight < concurrency && head < queue.length) {
      const body = queue[head] as string;
      queue[head] = '';
      head += 1;
      post(body);
    }
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    }
  };
  return {
    submit: (body: string) => {
      queue.push(body);
      pump();
    },
    /** Resolves once `count` bodies in all were accepted. */
    delivered: (count: number) =>
      new Promise<void>((resolve, reject) => {
        waiter = { count, resolve, reject };
        settle();
      }),
    close: () => agent.destroy(),
  };
}

async function httpSide(url: string, count: number, concurrency: number): Promise<SideResult> {
  const sender = nodeHttpSender(url, concurrency);
  let offset = 0;
  const result = await measure('http', count, async (n, sample) => {
    let lastEnded = 0;
    for (let c = offset; c < offset + n; c += 1) {
      const interactions: WireInteraction[] = [];
      for (const d of conversationData(c)) {
        const time_start = new Date().toISOString();
        interactions.push({
          input: d.input,
          output: d.output,
          time_start,
          time_end: new Date().toISOString(),
          tags: { ...tags, ...d.tags },
          feedback_actions: [],
          trace: [{ model: d.model, messages: d.messages, output: d.output, input_tokens: d.input_tokens, output_tokens: d.output_tokens }],
        });
      }
      sender.submit(JSON.stringify({ conversation: { end_user: endUser(c), interactions } }));
      lastEnded = performance.now();
      sample();
      await paced(c - offset);
    }
    await sender.delivered(offset + n);
    offset += n;
    return { lastEnded, delivered: n };
  });
  sender.close();
  return result;
}

if (process.send === undefined || url === undefined) throw new Error('run by bench/node-http-sender.ts with an IPC channel');
const result = side === 'sdk' ? await sdkSide(url, Number(conversations)) : await httpSide(url, Number(conversations), Number(concurrency));
process.send(result, () => process.exit(0));
