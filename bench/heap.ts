import { getHeapStatistics } from 'node:v8';

/**
 * Collects all the garbage there is (twice: a first pass can leave what finalizers
 * freed), and answers the heap in use after. Before a measurement, so that it does not
 * pay for collecting what an earlier benchmark left: the benchmarks share one process.
 * Needs `node --expose-gc`, which `npm run bench` passes.
 *
 * @example
 * ```ts
 * const before = collectGarbage();
 * ```
 */
export function collectGarbage(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Heap in use plus external memory (where Buffers and array buffers live), bytes:
 * `process.memoryUsage()`'s `heapUsed + external`, read from V8 without the resident set
 * size that `memoryUsage()` also reads from the system (some 16 µs a call against 1.3).
 */
export function heapAndExternal(): number {
  const { used_heap_size: heapUsed, external_memory: external } = getHeapStatistics();
  return heapUsed + external;
}

/**
 * Samples {@link heapAndExternal} every `everyMs` on a timer, and whenever `sample()` is
 * called (from a loop that holds the event loop, so that its timer cannot fire), keeping
 * the largest value seen until `stop()`. Garbage not yet collected counts: this is what
 * the process holds at that moment, not what it retains.
 *
 * @example
 * ```ts
 * const peak = peakSampler(5);
 * for (...) { work(); peak.sample(); }
 * const bytes = peak.stop();
 * ```
 */
export function peakSampler(everyMs: number): { sample: () => void; stop: () => number; samples: () => number } {
  let peak = heapAndExternal();
  let count = 1;
  let last = performance.now();
  const take = () => {
    last = performance.now();
    count += 1;
    peak = Math.max(peak, heapAndExternal());
  };
  const timer = setInterval(take, everyMs);
  return {
    // performance.now() costs some 30 ns, a sample about 1.3 µs: taken at the timer's pace.
    sample: () => {
      if (performance.now() - last >= everyMs) take();
    },
    stop: () => {
      clearInterval(timer);
      take();
      return peak;
    },
    samples: () => count,
  };
}
