/**
 * `npm run bench`: builds, then measures the recorder's costs against its targets and
 * writes them to bench/results.json. A benchmark, not a test: it reports, it does not fail.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { BLOCKING_SCENARIOS, ISSUE_32_SCENARIOS, benchBlocking } from './blocking.js';
import { benchBundle, describeBundle } from './bundle.js';
import { benchBurstHeap, describeBurstHeap } from './burst-heap.js';
import { benchDelivery } from './delivery.js';
import { benchExport } from './export.js';
import { benchImport } from './import.js';
import { benchFrameworks } from './frameworks.js';
import { benchIntegrations } from './integrations.js';
import { benchMemory, benchOpenConversation } from './memory.js';
import { benchNodeHttpSender, describeNodeHttpSender } from './node-http-sender.js';
import { benchOtel } from './otel.js';
import { benchPrivacy } from './privacy.js';
import { benchProviders, describeProviders } from './providers.js';
import { benchRecording } from './record.js';
import { benchRedis } from './redis.js';
import { benchRedisOutage } from './redis-outage.js';
import { DIST, loadSdk } from './sdk.js';

/**
 * Each figure's target, and what it is measured against (`vs`): a peer measured in the
 * same run (the figure is then a ratio or a difference), or a fixed limit.
 */
const TARGETS = {
  recordNsPerInteraction: { max: 1000, unit: 'ns', vs: 'limit' },
  recordVsPosthogCapture: { max: 0.25, unit: '×', vs: 'posthog-node capture()' },
  cpuPerConversationVsFetch: { max: 0.8, unit: '×', vs: 'raw fetch' },
  deliveryRatioVsFetch: { min: 1.3, unit: '×', vs: 'raw fetch' },
  cpuPerConversationVsNodeHttp: { max: 1.2, unit: '×', vs: 'keep-alive node:http sender' },
  peakHeapVsNodeHttp: { max: 1.5, unit: '×', vs: 'keep-alive node:http sender' },
  burstHeapVsMaxQueuedBytes: { max: 1.5, unit: '×', vs: 'maxQueuedBytes (120,000 tiny, service hangs; retained, after a full collection)' },
  burstHeap40kBVsMaxQueuedBytes: { max: 1.5, unit: '×', vs: 'maxQueuedBytes (500 of 40 kB, service hangs; retained, after a full collection)' },
  importMsVsLangfuse: { max: 1.2, unit: '×', vs: 'langfuse' },
  heapBytesPerJsonByte: { max: 1.5, unit: 'B/B', vs: 'its JSON bytes' },
  recorderBundleGzipBytes: { max: 16_000, unit: 'B', vs: 'limit' },
  clientAndRecorderBundleGzipBytes: { max: 21_000, unit: 'B', vs: 'limit' },
  openaiOverheadUsPerCall: { max: 20, unit: 'µs', vs: 'unwrapped OpenAI client' },
  openaiOverheadUsPerChunk: { max: 2, unit: 'µs', vs: 'unwrapped OpenAI client' },
  geminiOverheadUsPerCall: { max: 20, unit: 'µs', vs: 'unwrapped @google/genai client' },
  bedrockOverheadUsPerCall: { max: 20, unit: 'µs', vs: 'unwrapped Bedrock runtime client' },
  otelOverheadUsPerSpan: { max: 5, unit: 'µs', vs: 'no span processor' },
  longestBlockMs: { max: 10, unit: 'ms', vs: 'limit' },
  gapsOver10Ms: { max: 0, unit: 'gaps', vs: 'limit' },
  maskPiiUsPerKb: { max: 50, unit: 'µs/kB', vs: 'limit' },
  redisRoundTripsPerTurn: { max: 1, unit: 'round trips', vs: 'limit' },
  redisOutageGrowthMb: { max: 64, unit: 'MB', vs: 'limit' },
  exportPeakRssVsTenth: { max: 1.5, unit: '×', vs: 'exporting a tenth as many' },
} satisfies Record<string, ({ max: number } | { min: number }) & { unit: string; vs?: string }>;

type Metric = keyof typeof TARGETS;

/** A scenario's most main-thread CPU in one gap, or, where the kernel does not tell it, the gap's wall time (never less). */
const mainOrWall = ({ mainCpuMs, gapMs }: { mainCpuMs: number; gapMs: number }) => (Number.isNaN(mainCpuMs) ? gapMs : mainCpuMs);

const sdk = await loadSdk();

// Memory first, on a quiet heap; then the timings, the micro-benchmarks (recording,
// maskPII) before those that fill the heap or run other processes; the bundle last
// (esbuild is busy). maskPII measured after the others ranged 17-64 µs/kB from run to
// run; alone in a process, 10-26.
console.log('measuring memory …');
const memory = await benchMemory(sdk);
console.log('measuring recording …');
const recording = await benchRecording(sdk);
console.log('measuring maskPII …');
const privacy = benchPrivacy(sdk);
console.log('measuring delivery against the reference server in another process …');
const delivery = await benchDelivery(sdk);
console.log('measuring the recorder against a keep-alive node:http sender, 10,000 conversations × 5 turns, fresh processes …');
const nodeHttp = await benchNodeHttpSender();
console.log('measuring heap during bursts against a service that hangs, fresh processes …');
const burst = await benchBurstHeap();
console.log('measuring import time against langfuse, fresh processes …');
const cold = await benchImport();
console.log('measuring observeOpenAI against the unwrapped client …');
const integrations = await benchIntegrations(sdk);
console.log('measuring observeGoogleGenAI and observeBedrock against the unwrapped clients …');
const providers = await benchProviders(sdk);
console.log('measuring nebulyMiddleware and NebulyCallbackHandler against no-op ones …');
const frameworks = await benchFrameworks(sdk);
console.log('measuring NebulySpanProcessor against no processor …');
const otel = await benchOtel(sdk);
console.log('measuring the longest block of the event loop in large cases …');
const blocking = await benchBlocking(sdk);
const openConversationBytes = await benchOpenConversation(sdk);
console.log('measuring the Redis store: 4 processes storing turns through one redis-server …');
const redis = await benchRedis();
console.log('measuring memory while Redis is down: 30,000 turns of 4 kB, Redis killed, then stopped …');
const outage = { killed: await benchRedisOutage('killed'), stopped: await benchRedisOutage('stopped') };
console.log('measuring nebuly interactions export: 1,000,000 interactions from the reference server, and a tenth as many …');
const exported = await benchExport();
console.log('measuring the bundle …');
const bundle = await benchBundle();

const figures: Record<Metric, number> = {
  recordNsPerInteraction: recording.recordNsPerInteraction,
  recordVsPosthogCapture: Number(recording.recordVsPosthogCapture.toFixed(3)),
  cpuPerConversationVsFetch: Number(delivery.cpuPerConversationVsFetch.toFixed(3)),
  deliveryRatioVsFetch: Number(delivery.deliveryRatioVsFetch.toFixed(3)),
  cpuPerConversationVsNodeHttp: Number(nodeHttp.cpuPerConversationVsNodeHttp.toFixed(3)),
  peakHeapVsNodeHttp: Number(nodeHttp.peakHeapVsNodeHttp.toFixed(3)),
  burstHeapVsMaxQueuedBytes: Number(burst.tiny.retainedVsBound.toFixed(3)),
  burstHeap40kBVsMaxQueuedBytes: Number(burst.large.retainedVsBound.toFixed(3)),
  importMsVsLangfuse: Number(cold.importMsVsLangfuse.toFixed(3)),
  heapBytesPerJsonByte: Number(memory.heapBytesPerJsonByte.toFixed(3)),
  recorderBundleGzipBytes: bundle.scenarios.recorderOnly.eagerGzipBytes,
  clientAndRecorderBundleGzipBytes: bundle.scenarios.clientAndRecorder.eagerGzipBytes,
  openaiOverheadUsPerCall: integrations.overheadUsPerCall,
  openaiOverheadUsPerChunk: integrations.overheadUsPerChunk,
  geminiOverheadUsPerCall: providers.gemini.overheadUsPerCall,
  bedrockOverheadUsPerCall: providers.bedrock.overheadUsPerCall,
  otelOverheadUsPerSpan: otel.overheadUsPerSpan,
  // Issue 32's scenarios; the others (larger) are printed below, not hidden.
  // The main thread's CPU in a gap, as the issue defines the figure; where the kernel does
  // not tell it, the gap's wall time, which is never less.
  longestBlockMs: Math.max(...ISSUE_32_SCENARIOS.flatMap((scenario) => [blocking[scenario].callMs, mainOrWall(blocking[scenario])])),
  gapsOver10Ms: ISSUE_32_SCENARIOS.reduce((sum, scenario) => sum + (Number.isNaN(blocking[scenario].mainCpuMs) ? blocking[scenario].over10 : blocking[scenario].mainOver10), 0),
  maskPiiUsPerKb: privacy.maskPiiUsPerKb,
  redisRoundTripsPerTurn: redis.roundTripsPerTurn,
  redisOutageGrowthMb: Math.max(outage.killed.peakGrowthMb, outage.stopped.peakGrowthMb),
  exportPeakRssVsTenth: exported.peakRssRatio,
};

function meets(metric: Metric, value: number): boolean {
  const target: { max: number } | { min: number } = TARGETS[metric];
  return 'max' in target ? value <= target.max : value >= target.min;
}

console.table(
  Object.fromEntries(
    (Object.keys(TARGETS) as Metric[]).map((metric) => {
      const target: ({ max: number } | { min: number }) & { unit: string; vs?: string } = TARGETS[metric];
      return [
        metric,
        {
          value: figures[metric],
          vs: target.vs ?? 'limit',
          target: 'max' in target ? `≤ ${target.max}` : `≥ ${target.min}`,
          unit: target.unit,
          met: meets(metric, figures[metric]) ? 'yes' : 'NO',
        },
      ];
    }),
  ),
);
console.log(
  `recording: p99 ${recording.recordP99Ns} ns; conversation.end() (validation + JSON) ${recording.endNsPerInteraction} ns per interaction; ` +
    `posthog-node capture() of the same interaction ${recording.posthogCaptureNs} ns (medians, same run)`,
);
console.log(
  `delivery: ${delivery.conversations} conversations × ${delivery.interactionsPerConversation} interactions, concurrency ${delivery.concurrency}; ` +
    `SDK ${delivery.sdkMs.join('/')} ms, fetch ${delivery.fetchMs.join('/')} ms; client CPU per conversation ` +
    `${delivery.sdkCpuUs.join('/')} µs, per fetch request ${delivery.fetchCpuUs.join('/')} µs; ` +
    `ky over fetch, as the typed client sends off Node (same bodies) ${delivery.kyCpuUs.join('/')} µs, ${delivery.kyCpuVsFetch.toFixed(3)} × fetch`,
);
for (const line of [...describeNodeHttpSender(nodeHttp), ...describeBurstHeap(burst)]) console.log(line);
console.log(
  `import + new client: nebuly-client as Node resolves it ${cold.sdkMs} ms, langfuse ${cold.langfuseMs} ms, an empty module ${cold.emptyMs} ms, ` +
    `${DIST.pathname}index.js (the bundlers' build) ${cold.bundlerBuildMs} ms ` +
    `(medians of ${cold.rounds} fresh processes each, alternating)`,
);
console.log(
  `memory: ${memory.interactions} interactions hold ${memory.heapBytes} heap bytes for ${memory.jsonBytes} JSON bytes; ` +
    `an open conversation with nothing recorded holds ${openConversationBytes} B`,
);
for (const line of describeBundle(bundle)) console.log(line);
console.log(
  `longest block (the main-thread CPU of the call itself / the most main-thread CPU in one gap between two turns of the ` +
    `event loop while it ran [its gaps over 10 ms]; the call's wall time, the longest gap's wall time, the collector's pauses ` +
    `in it and its gaps over 10 ms), ms: ` +
    BLOCKING_SCENARIOS.map(
      (scenario) =>
        `${scenario} ${blocking[scenario].callMs} / ${blocking[scenario].mainCpuMs} [${blocking[scenario].mainOver10}] ` +
        `(call wall ${blocking[scenario].callWallMs}, wall ${blocking[scenario].gapMs}, gc ${blocking[scenario].gcMs}, ${blocking[scenario].over10} over 10 ms)`,
    ).join('; ') +
    `; the longest of all: ${Math.max(...BLOCKING_SCENARIOS.flatMap((scenario) => [blocking[scenario].callMs, blocking[scenario].gapMs]))}` +
    `; sent: 50 MiB conversation ${blocking.crop50MiBSentBytes} B, 10k-interaction one ${blocking.end10kSentBytes} B` +
    `; the 50 MiB string built by concatenation (a rope V8 copies whole on its first read): ` +
    `${blocking.crop50MiBRope.callMs} / ${blocking.crop50MiBRope.gapMs} (gc ${blocking.crop50MiBRope.gcMs})`,
);
const quartiles = ({ p25, median }: { p25: number; median: number }) => `${p25} µs (median ${median})`;
console.log(
  `observeOpenAI, lower quartiles of ${integrations.calls} calls and ${integrations.streams} streams, one of each in turn: ` +
    `chat.completions.create ${quartiles(integrations.plainCallUs)} unwrapped, ${quartiles(integrations.observedCallUs)} observed; ` +
    `per chunk of a ${integrations.chunksPerStream}-chunk stream ${quartiles(integrations.plainChunkUs)} unwrapped, ${quartiles(integrations.observedChunkUs)} observed`,
);
for (const line of describeProviders(providers)) console.log(line);
console.log(
  `nebulyMiddleware, lower quartiles of ${frameworks.calls} calls and ${frameworks.streams} streams: ` +
    `generateText ${quartiles(frameworks.aiSdkPlainCallUs)} with a no-op middleware, ${quartiles(frameworks.aiSdkObservedCallUs)} with it; ` +
    `per part of a ${frameworks.partsPerStream}-part streamText ${quartiles(frameworks.aiSdkPlainPartUs)} and ${quartiles(frameworks.aiSdkObservedPartUs)}. ` +
    `NebulyCallbackHandler: chat model invoke ${quartiles(frameworks.langchainNoopCallUs)} with a no-op handler, ${quartiles(frameworks.langchainObservedCallUs)} with it`,
);
console.log(
  `NebulySpanProcessor, lower quartiles of ${otel.traces} traces of ${otel.spansPerTrace} AI SDK-shaped spans: ` +
    `${quartiles(otel.plainTraceUs)} per trace without it, ${quartiles(otel.observedTraceUs)} with it`,
);
console.log(
  `maskPII: ${privacy.maskPiiUsPerKb} µs per kB of a ${privacy.bodyKb} kB conversation body of chat text; ` +
    `near-miss text ${privacy.nearMissUsPerKb.small} µs/kB at 100 kB, ${privacy.nearMissUsPerKb.large} µs/kB at 1 MB (linear: equal)`,
);
console.log(
  `redis: ${redis.turnsPerSecond} turns/s stored by ${redis.processes} processes (${redis.turns} turns, one redis-server), ` +
    `${redis.recordedTurnsPerSecond} turns/s recorded through the recorder (${redis.recorderRoundTripsPerTurn} round trip per turn); ` +
    `per turn: ${redis.roundTripsPerTurn} round trip (${redis.scriptCommandsPerTurn} commands inside the script, ${redis.luaUsPerAppend} µs of server time), ` +
    `server CPU ${redis.serverCpuUsPerTurn} µs, client CPU ${redis.clientCpuUsPerTurn} µs of which JSON.stringify ${redis.serializeUsPerTurn} µs; ` +
    `recording through the recorder ${redis.recorderCpuUsPerTurn} µs of CPU per turn over redisStore, ${redis.memoryRecorderCpuUsPerTurn} µs over the memory store (${redis.recorderCpuVsMemoryStore}×); ` +
    `PING round trip ${redis.pingRttUs} µs; claim + complete ${redis.roundTripsPerClaimAndComplete} round trips per conversation, ` +
    `${redis.claimedInteractions} of ${redis.turns} turns claimed back`,
);
for (const down of [outage.killed, outage.stopped]) {
  console.log(
    `Redis ${down.outage}: ${down.turns} turns of 4 kB recorded, heap + external grew ${down.peakGrowthMb} MB at most ` +
      `(${down.growthVsBound}× maxQueuedBytes); reported ${JSON.stringify(down.reported)}`,
  );
}
console.log(
  `interactions export (the bin, to a file): ${exported.large.interactions} interactions over ${exported.large.weeks} weeks ` +
    `${exported.large.interactionsPerSecond} interactions/s, peak RSS ${exported.large.peakRssMb} MB (${exported.large.seconds} s with start-up, ${exported.large.fileMb} MB written); ` +
    `${exported.small.interactions} over ${exported.small.weeks} weeks (windows as full): peak RSS ${exported.small.peakRssMb} MB`,
);
if (!meets('clientAndRecorderBundleGzipBytes', figures.clientAndRecorderBundleGzipBytes)) {
  console.log('heaviest inputs of the client + recorder bundle, eager part (minified bytes):');
  for (const { input, bytes } of bundle.heaviestEagerInputs) console.log(`  ${String(bytes).padStart(6)}  ${input}`);
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.availableParallelism(),
  ...figures,
  targets: TARGETS,
  met: Object.fromEntries((Object.keys(TARGETS) as Metric[]).map((metric) => [metric, meets(metric, figures[metric])])),
  details: { recording, delivery, nodeHttp, burst, import: cold, memory, openConversationBytes, bundle, integrations, providers, frameworks, otel, blocking, privacy, redis, outage, export: exported },
};
await writeFile(new URL('results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log('written to bench/results.json');
