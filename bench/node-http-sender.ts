/**
 * The recorder against a minimal keep-alive `node:http` sender of the same bodies (issue
 * 32): CONVERSATIONS conversations of 5 turns recorded and delivered to the sink
 * (bench/sink.ts) on loopback by each side, in a process of its own
 * (bench/node-http-sender-child.ts), ROUNDS rounds each, the sides interleaved. Compared:
 * the client's CPU per delivered conversation, and the peak of its heap plus external
 * memory while it records and delivers everything. At two paces (PACES): one
 * conversation per turn of the event loop, as a server ends one per request (the
 * figures of the table), and bursts of 100, where recording can run ahead of delivery.
 *
 * The first round of each side also proves that both sent the same thing: the same
 * bodies but for their timestamps, with the same header names.
 *
 *   node --expose-gc --import tsx bench/node-http-sender.ts   # alone (after npm run build)
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RECORDER_DEFAULTS } from '../src/core/recorder-options.js';
import type { Side, SideResult } from './node-http-sender-child.js';
import { startSink, type Sink } from './sink-process.js';

const CONVERSATIONS = 10_000;
const ROUNDS = 3;
/** Conversations ended between two turns of the event loop. */
const PACES = [1, 100] as const;
/** The sender's sends in flight: the recorder's default `maxConcurrentSends`. */
const CONCURRENCY = RECORDER_DEFAULTS.maxConcurrentSends;
const MIB = 1024 * 1024;

/** Both sides at one pace. */
export interface PaceResult {
  /** Conversations ended between two turns of the event loop. */
  perTurn: number;
  /** The SDK's median CPU per delivered conversation over the sender's: 1 costs what the sender does. */
  cpuPerConversationVsNodeHttp: number;
  /** The same, of the main thread alone. */
  mainThreadCpuVsNodeHttp: number;
  /** The SDK's median peak heapUsed + external over the sender's. */
  peakHeapVsNodeHttp: number;
  /** The same with each peak less its side's baseline (after the warm-up and a full collection). */
  peakGrowthVsNodeHttp: number;
  /** Each round of each side, in the order they ran. */
  sdk: SideResult[];
  http: SideResult[];
  /** Rounds in which a side did not deliver every conversation, one line each. */
  failures: string[];
}

export interface NodeHttpSenderResult extends PaceResult {
  /** Every pace; the figures above are the first's. */
  paces: PaceResult[];
  conversations: number;
  turns: number;
  concurrency: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** One side in a fresh process, against the sink; what it measured. */
function runSide(side: Side, sink: Sink, perTurn: number): Promise<SideResult> {
  const child = fork(
    fileURLToPath(new URL('node-http-sender-child.ts', import.meta.url)),
    [side, sink.url, String(CONVERSATIONS), String(CONCURRENCY), String(perTurn)],
    { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  return new Promise<SideResult>((resolve, reject) => {
    child.once('message', (result: SideResult) => resolve(result));
    child.once('exit', (code) => reject(new Error(`the ${side} side exited (${code}) before it answered`)));
  });
}

/** What the sink received: the bodies, their timestamps blanked and sorted, and the lists of header names. */
async function received(sink: Sink): Promise<{ bodies: string[]; headers: string[] }> {
  const { bodies } = await sink.call<{ bodies: string[] }>('bodies');
  const { headers } = await sink.call<{ headers: string[] }>('headers');
  const blanked = bodies.map((body) => body.replace(/"time_(start|end)":"[^"]*"/g, '"time_$1":""')).sort();
  return { bodies: blanked, headers: headers.sort() };
}

function sameAs(sdk: Awaited<ReturnType<typeof received>>, http: Awaited<ReturnType<typeof received>>): void {
  if (sdk.headers.join(';') !== http.headers.join(';')) {
    throw new Error(`the sender's header names differ from the SDK's: ${http.headers.join(';')} against ${sdk.headers.join(';')}`);
  }
  if (sdk.bodies.length !== http.bodies.length) throw new Error(`the SDK sent ${sdk.bodies.length} bodies, the sender ${http.bodies.length}`);
  const differ = sdk.bodies.findIndex((body, n) => body !== http.bodies[n]);
  if (differ !== -1) throw new Error(`the sender's bodies differ from the SDK's, e.g. ${http.bodies[differ]?.slice(0, 300)} against ${sdk.bodies[differ]?.slice(0, 300)}`);
}

/**
 * Runs both sides ROUNDS times at each pace, interleaved (the order swapped each round),
 * each in a fresh process against one sink.
 *
 * @example
 * ```ts
 * const { cpuPerConversationVsNodeHttp } = await benchNodeHttpSender();
 * ```
 */
export async function benchNodeHttpSender(): Promise<NodeHttpSenderResult> {
  const sink = await startSink();
  const paces: PaceResult[] = [];
  const firstReceived: Partial<Record<Side, Awaited<ReturnType<typeof received>>>> = {};
  try {
    for (const perTurn of PACES) {
      const rounds: Record<Side, SideResult[]> = { sdk: [], http: [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        const order: Side[] = round % 2 === 0 ? ['sdk', 'http'] : ['http', 'sdk'];
        for (const side of order) {
          await sink.call('clear');
          const result = await runSide(side, sink, perTurn);
          const { count } = await sink.call<{ count: number }>('count');
          if (count < result.delivered) throw new Error(`the sink took ${count} bodies from the ${side} side, fewer than the ${result.delivered} it delivered`);
          // The first complete round of each side: a round with refusals sent fewer bodies.
          if (firstReceived[side] === undefined && result.delivered === result.conversations) firstReceived[side] = await received(sink);
          rounds[side].push(result);
        }
      }
      paces.push(compare(perTurn, rounds));
    }
  } finally {
    sink.child.send('close');
  }
  if (firstReceived.sdk === undefined || firstReceived.http === undefined) throw new Error('no round delivered everything: the bodies were not compared');
  sameAs(firstReceived.sdk, firstReceived.http);
  const [first] = paces as [PaceResult];
  return { ...first, paces, conversations: CONVERSATIONS, turns: first.sdk[0]?.turns ?? Number.NaN, concurrency: CONCURRENCY };
}

/** The ratios of the medians of both sides' rounds at one pace. */
function compare(perTurn: number, rounds: Record<Side, SideResult[]>): PaceResult {
  const of = (side: Side, figure: (result: SideResult) => number) => median(rounds[side].map(figure));
  const cpu = (result: SideResult) => result.cpuUsPerConversation;
  const mainThread = (result: SideResult) => result.mainThreadUsPerConversation;
  const peak = (result: SideResult) => result.peakBytes;
  const growth = (result: SideResult) => result.peakBytes - result.baselineBytes;
  return {
    perTurn,
    cpuPerConversationVsNodeHttp: of('sdk', cpu) / of('http', cpu),
    mainThreadCpuVsNodeHttp: of('sdk', mainThread) / of('http', mainThread),
    peakHeapVsNodeHttp: of('sdk', peak) / of('http', peak),
    peakGrowthVsNodeHttp: of('sdk', growth) / of('http', growth),
    sdk: rounds.sdk,
    http: rounds.http,
    failures: [...rounds.sdk, ...rounds.http]
      .filter((result) => result.delivered !== result.conversations)
      .map(
        (result) =>
          `${result.side} at ${perTurn} per turn of the event loop delivered ${result.delivered} of ${result.conversations}; ` +
          `reported to onError: ${JSON.stringify(result.reported)}`,
      ),
  };
}

/** The figures of each round as lines to print. */
export function describeNodeHttpSender(result: NodeHttpSenderResult): string[] {
  const mb = (bytes: number) => (bytes / MIB).toFixed(1);
  return result.paces.flatMap((pace) => {
    const rounds = (side: Side, figure: (round: SideResult) => string) => pace[side].map(figure).join('/');
    const each = (side: Side) =>
      `CPU ${rounds(side, (r) => r.cpuUsPerConversation.toFixed(0))} µs per conversation (main thread ${rounds(side, (r) => r.mainThreadUsPerConversation.toFixed(0))}), ` +
      `peak heap + external ${rounds(side, (r) => mb(r.peakBytes))} MB over a baseline of ${rounds(side, (r) => mb(r.baselineBytes))} MB, ` +
      `${rounds(side, (r) => r.wallMs.toFixed(0))} ms from the first start to the last delivered`;
    return [
      ...pace.failures.map((failure) => `FAILED: ${failure}`),
      `against a keep-alive node:http sender: ${result.conversations} conversations × ${result.turns} turns, ` +
        `${pace.perTurn} ended per turn of the event loop, ${result.concurrency} sends in flight; CPU ${pace.cpuPerConversationVsNodeHttp.toFixed(3)}× ` +
        `(main thread ${pace.mainThreadCpuVsNodeHttp.toFixed(3)}×), ` +
        `peak heap ${pace.peakHeapVsNodeHttp.toFixed(3)}×, peak growth over the baseline ${pace.peakGrowthVsNodeHttp.toFixed(3)}× (medians of ${pace.sdk.length} processes each, interleaved)`,
      `  SDK (flush() resolving ${rounds('sdk', (r) => r.lagMs.toFixed(0))} ms after the last end()): ${each('sdk')}`,
      `  node:http sender (the last delivered ${rounds('http', (r) => r.lagMs.toFixed(0))} ms after the last end): ${each('http')}; ` +
        `making the test data ${rounds('http', (r) => r.dataUsPerConversation.toFixed(0))} µs per conversation, left out of both`,
    ];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchNodeHttpSender();
  for (const line of describeNodeHttpSender(result)) console.log(line);
}
