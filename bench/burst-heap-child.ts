/**
 * One burst of bench/burst-heap.ts, in a process of its own so that the heap it samples
 * is the recorder's alone: `conversations` conversations of one turn (`turnBytes` of
 * input and output together) ended in a loop, a turn of the event loop every
 * YIELD_EVERY, against a server that accepts connections and never answers; then
 * `shutdown({ timeoutMs: 1000 })`. Samples heapUsed + external every SAMPLE_MS meanwhile,
 * counts what reached `onError`, and answers a {@link BurstResult} over IPC.
 *
 * With `control`, the same loop makes the same texts and records nothing: the growth of
 * the loop and its garbage alone, which the recorder's growth includes.
 *
 *   node --expose-gc --import tsx bench/burst-heap-child.ts <hanging url> <conversations> <turnBytes> [control]
 */
import { randomBytes } from 'node:crypto';
import type { NebulyClient } from '../src/client.js';
import { collectGarbage, heapAndExternal, peakSampler } from './heap.js';
import { loadSdk } from './sdk.js';

const MIB = 1024 * 1024;
/** The recorder's bound under test. */
const MAX_QUEUED_BYTES = 20 * MIB;
const SHUTDOWN_TIMEOUT_MS = 1_000;
/** Conversations ended between two turns of the event loop: a burst, the host's loop still turning. */
const YIELD_EVERY = 500;
const SAMPLE_MS = 2;
/** How many times the loop stops for a full collection and a sample of what is retained. */
const RETAINED_SAMPLES = 40;
/** How long reports that arrive after `shutdown()` resolved are still counted, ms. */
const LATE_WINDOW_MS = 1_000;

/** What one burst measured. */
export interface BurstResult {
  conversations: number;
  turnBytes: number;
  maxQueuedBytes: number;
  /** The largest heapUsed + external growth over the baseline (after a full collection), bytes, from the burst's start until shutdown() resolved. */
  peakGrowthBytes: number;
  /** `peakGrowthBytes` / `maxQueuedBytes`. */
  growthVsBound: number;
  /**
   * The largest heapUsed + external growth over the baseline after a full collection,
   * taken RETAINED_SAMPLES times through the burst and once when shutdown() resolved:
   * what the recorder keeps, garbage aside (how test/recorder/heap-drain.test.ts measures
   * the same bound), bytes.
   */
  retainedGrowthBytes: number;
  /** `retainedGrowthBytes` / `maxQueuedBytes`: the figure the bound is held to. */
  retainedVsBound: number;
  /** Conversations refused with a `QueueFullError`, and how many such errors carried them. */
  queueFull: { conversations: number; errors: number };
  /** `DeliveryError`s (one conversation each). */
  deliveryErrors: number;
  /** Any other error reported, by name. */
  otherErrors: Record<string, number>;
  /** What `shutdown()` resolved with. */
  report: { delivered: number; failed: number; dropped: number };
  /** Conversations reported (refused or not delivered) by the time shutdown() resolved. */
  reportedByShutdown: number;
  /** Conversations reported within LATE_WINDOW_MS after it. */
  reportedLate: number;
  /** The burst's loop, ms; and shutdown(), ms. */
  burstMs: number;
  shutdownMs: number;
  samples: number;
}

/**
 * Fresh, flat texts of `length` characters: each copied out of one pool of random
 * hexadecimal at its own offset, as text from a request or an LLM API is a string of its
 * own. Without garbage besides the text itself (no Buffer per text), so that what the
 * loop leaves does not hide what the recorder keeps; a short one is the number, padded.
 */
function texts(length: number): (n: number) => string {
  if (length < 64) return (n) => String(n).padStart(length, 'q');
  const pool = Buffer.from(randomBytes(length).toString('hex'), 'latin1');
  return (n) => {
    const start = (n * 7919) % length;
    return pool.toString('latin1', start, start + length);
  };
}

/**
 * The loop of the burst: `conversations` ended, the event loop turning every YIELD_EVERY,
 * `peak` sampled after each, and `retained` (if given) RETAINED_SAMPLES times, spread.
 */
async function loop(conversations: number, record: (n: number) => void, sample: () => void, retained?: () => void): Promise<void> {
  const retainEvery = Math.max(1, Math.floor(conversations / RETAINED_SAMPLES));
  for (let n = 0; n < conversations; n += 1) {
    record(n);
    sample();
    if (retained !== undefined && n % retainEvery === retainEvery - 1) retained();
    if (n % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The loop alone, making the texts and recording nothing: its peak growth, bytes. */
async function control(conversations: number, turnBytes: number): Promise<number> {
  const text = texts(Math.max(1, Math.floor(turnBytes / 2)));
  let kept = 0;
  collectGarbage();
  const baseline = heapAndExternal();
  const peak = peakSampler(SAMPLE_MS);
  await loop(conversations, (n) => {
    kept += text(n).length + text(n + 1).length;
  }, peak.sample);
  await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS));
  if (kept === 0) throw new Error('nothing made');
  return peak.stop() - baseline;
}

async function burst(url: string, conversations: number, turnBytes: number): Promise<BurstResult> {
  const sdk = await loadSdk();
  const queueFull = { conversations: 0, errors: 0 };
  let deliveryErrors = 0;
  const otherErrors: Record<string, number> = {};
  // Counted, not kept: each error holds its payloads, which would weigh on the heap measured.
  const onError = (error: Error) => {
    if (error instanceof sdk.QueueFullError) {
      queueFull.errors += 1;
      queueFull.conversations += error.conversations.length;
    } else if (error instanceof sdk.DeliveryError) {
      deliveryErrors += 1;
    } else {
      otherErrors[error.name] = (otherErrors[error.name] ?? 0) + 1;
    }
  };
  const nebuly: NebulyClient = new sdk.NebulyClient({ apiKey: 'bench-key', baseUrl: url, onError, recorder: { maxQueuedBytes: MAX_QUEUED_BYTES } });
  // The recorder's background part loaded before the baseline, as in a process that has run a while.
  await nebuly.flush();
  const text = texts(Math.max(1, Math.floor(turnBytes / 2)));
  collectGarbage();
  const baseline = heapAndExternal();
  const peak = peakSampler(SAMPLE_MS);
  let retainedPeak = baseline;
  let collecting = 0;
  const retained = () => {
    const before = performance.now();
    collectGarbage();
    retainedPeak = Math.max(retainedPeak, heapAndExternal());
    collecting += performance.now() - before;
  };
  const started = performance.now();
  await loop(
    conversations,
    (n) => {
      const conversation = nebuly.startConversation({ end_user: `user-${n}` });
      conversation.interaction({ input: text(n) }).end({ output: text(n + 1) });
      void conversation.end();
    },
    peak.sample,
    retained,
  );
  // The loop's own time, without the collections it stopped for.
  const burstMs = performance.now() - started - collecting;
  const report = await nebuly.shutdown({ timeoutMs: SHUTDOWN_TIMEOUT_MS });
  const shutdownMs = performance.now() - started - collecting - burstMs;
  const peakGrowthBytes = peak.stop() - baseline;
  retained();
  const retainedGrowthBytes = retainedPeak - baseline;
  const reported = () => queueFull.conversations + deliveryErrors;
  const reportedByShutdown = reported();
  await new Promise((resolve) => setTimeout(resolve, LATE_WINDOW_MS));
  return {
    conversations,
    turnBytes,
    maxQueuedBytes: MAX_QUEUED_BYTES,
    peakGrowthBytes,
    growthVsBound: peakGrowthBytes / MAX_QUEUED_BYTES,
    retainedGrowthBytes,
    retainedVsBound: retainedGrowthBytes / MAX_QUEUED_BYTES,
    queueFull,
    deliveryErrors,
    otherErrors,
    report,
    reportedByShutdown,
    reportedLate: reported() - reportedByShutdown,
    burstMs,
    shutdownMs,
    samples: peak.samples(),
  };
}

const [url, conversations, turnBytes, mode] = process.argv.slice(2);
if (process.send === undefined || url === undefined) throw new Error('run by bench/burst-heap.ts with an IPC channel');
const result = mode === 'control' ? { controlGrowthBytes: await control(Number(conversations), Number(turnBytes)) } : await burst(url, Number(conversations), Number(turnBytes));
process.send(result, () => process.exit(0));
