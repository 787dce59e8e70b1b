/**
 * Heap during a burst against a service that hangs (issue 32, "Memory"): with
 * `maxQueuedBytes` at 20 MiB, 120,000 tiny conversations, and then 500 of 40 kB, ended
 * in a loop against a server on loopback that accepts connections, reads the requests
 * and never answers; then `shutdown({ timeoutMs: 1000 })`. What does not fit must be a
 * `QueueFullError` at once, so that what the recorder retains (heap + external after a
 * full collection, sampled through the burst, as test/recorder/heap-drain.test.ts measures
 * it) stays within 1.5× the bound; the growth with garbage not yet collected is printed
 * beside it. And by the time `shutdown()` resolves every conversation ended must have met its fate:
 * delivered, or handed to `onError` (refused, or not delivered by the deadline).
 *
 * Each burst runs in a child process of its own (bench/burst-heap-child.ts); the server
 * runs in this one, so that the connections it holds are not on the heap measured.
 *
 *   node --expose-gc --import tsx bench/burst-heap.ts   # alone (after npm run build)
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startHangingServer } from '../test/helpers/hanging-server.js';
import type { BurstResult } from './burst-heap-child.js';

const MIB = 1024 * 1024;
/** The bursts: conversations of one turn, and that turn's input and output bytes together. */
const BURSTS = {
  tiny: { conversations: 120_000, turnBytes: 24 },
  large: { conversations: 500, turnBytes: 40_000 },
} as const;

/** A burst, and the growth of the same loop recording nothing (bench/burst-heap-child.ts's control), bytes. */
export type MeasuredBurst = BurstResult & { controlGrowthBytes: number };

export interface BurstHeapResult {
  tiny: MeasuredBurst;
  large: MeasuredBurst;
  /** What went wrong with the fates, one line each: empty when every conversation met its fate by the time shutdown() resolved. */
  failures: string[];
  /** Counts of shutdown()'s report that differ from what was ended. */
  notes: string[];
}

function runChild<T>(args: string[]): Promise<T> {
  const child = fork(fileURLToPath(new URL('burst-heap-child.ts', import.meta.url)), args, {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<T>((resolve, reject) => {
    child.once('message', (result: T) => resolve(result));
    child.once('exit', (code) => reject(new Error(`the burst process exited (${code}) before it answered`)));
  });
}

/** The burst, then its control, each in a fresh process. */
async function runBurst(url: string, burst: (typeof BURSTS)[keyof typeof BURSTS]): Promise<MeasuredBurst> {
  const args = [url, String(burst.conversations), String(burst.turnBytes)];
  const result = await runChild<BurstResult>(args);
  const { controlGrowthBytes } = await runChild<{ controlGrowthBytes: number }>([...args, 'control']);
  return { ...result, controlGrowthBytes };
}

/**
 * Why a burst's conversations did not all meet their fate by the time shutdown()
 * resolved, if they did not: delivered (the server answers nothing, so none is, but
 * shutdown()'s count is taken) plus reported to onError must be all that were ended.
 */
function fateFailures(name: string, result: BurstResult): string[] {
  const failures: string[] = [];
  if (result.report.delivered + result.reportedByShutdown !== result.conversations) {
    failures.push(
      `${name}: ${result.conversations} ended, ${result.report.delivered} delivered + ${result.reportedByShutdown} reported to onError by the time shutdown() resolved ` +
        `(${result.reportedLate} more within a second after)`,
    );
  }
  if (Object.keys(result.otherErrors).length > 0) failures.push(`${name}: other errors reported: ${JSON.stringify(result.otherErrors)}`);
  return failures;
}

/** Where shutdown()'s report does not count every conversation ended since the warm-up's flush(), as DeliveryReport's documentation says it does. */
function countNote(name: string, result: BurstResult): string[] {
  const { delivered, failed, dropped } = result.report;
  const counted = delivered + failed + dropped;
  return counted === result.conversations ? [] : [`note: ${name}: shutdown() counted ${counted} of the ${result.conversations} ended (${JSON.stringify(result.report)})`];
}

/**
 * Runs both bursts, one after the other, against one hanging server.
 *
 * @example
 * ```ts
 * const { tiny, large, failures } = await benchBurstHeap();
 * ```
 */
export async function benchBurstHeap(): Promise<BurstHeapResult> {
  const server = await startHangingServer();
  try {
    const tiny = await runBurst(server.url, BURSTS.tiny);
    const large = await runBurst(server.url, BURSTS.large);
    return {
      tiny,
      large,
      failures: [...fateFailures('tiny', tiny), ...fateFailures('40 kB', large)],
      notes: [...countNote('tiny', tiny), ...countNote('40 kB', large)],
    };
  } finally {
    await server.close();
  }
}

/** The figures as lines to print, the failures first. */
export function describeBurstHeap(result: BurstHeapResult): string[] {
  const line = (name: string, burst: MeasuredBurst) =>
    `burst against a service that hangs, ${name}: ${burst.conversations} conversations of one ${burst.turnBytes} B turn, maxQueuedBytes ${burst.maxQueuedBytes / MIB} MiB: ` +
    `heap + external retained ${(burst.retainedGrowthBytes / MIB).toFixed(1)} MiB at most after a full collection (${burst.retainedVsBound.toFixed(2)}× the bound); ` +
    `with garbage not yet collected, grew ${(burst.peakGrowthBytes / MIB).toFixed(1)} MiB at most (${burst.growthVsBound.toFixed(2)}×, ${burst.samples} samples; ` +
    `the loop alone, recording nothing, ${(burst.controlGrowthBytes / MIB).toFixed(1)} MiB); ` +
    `${burst.queueFull.conversations} refused in ${burst.queueFull.errors} QueueFullError(s), ${burst.deliveryErrors} DeliveryError(s) by the deadline; ` +
    `shutdown() ${JSON.stringify(burst.report)} after ${burst.shutdownMs.toFixed(0)} ms (the loop ${burst.burstMs.toFixed(0)} ms); ` +
    `${burst.reportedLate} reported after it resolved`;
  return [...result.failures.map((failure) => `FAILED: ${failure}`), line('tiny', result.tiny), line('40 kB', result.large), ...result.notes];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of describeBurstHeap(await benchBurstHeap())) console.log(line);
}
