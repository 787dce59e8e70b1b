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
