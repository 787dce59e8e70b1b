import { openSync, readSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { threadCpuClock } from './thread-cpu.js';

/** What {@link watchLoop} saw of the event loop. */
export interface LoopGaps {
  /** The longest gap between two turns, ms. */
  gapMs: number;
  /** How much of it the collector's pauses took, ms. */
  gcMs: number;
  /** How many gaps were over 10 ms. */
  over10: number;
  /**
   * The most CPU the process used within one gap, ms: the main thread's and its helpers'
   * (the collector's, libuv's), so at least the main thread's own, and unlike the gap's
   * wall time not lengthened by other processes taking the cores.
   */
  cpuMs: number;
  /**
   * The most CPU the main thread alone used within one gap, ms: the figure of issue 32's
   * target ("main-thread CPU in each gap"). The collector's pauses on the main thread
   * count; its helper threads, another process taking the core, do not. NaN where the
   * kernel does not tell (see {@link mainThreadClock}).
   */
  mainCpuMs: number;
  /** How many gaps held more than 10 ms of the main thread's CPU. */
  mainOver10: number;
}

/**
 * The main thread's CPU time so far, ns: exact where the small addon of
 * bench/thread-cpu.ts builds (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`), else Linux's
 * `/proc/thread-self/schedstat` (opened by the main thread, so it stays that thread's;
 * 7 µs a read), which counts a running thread's time only at each scheduler tick (4 ms
 * on the machines here): a gap of 8 ms reads 4 or 12 there, and the most of thousands of
 * gaps comes out up to a tick too high. `undefined` where neither is there. Node 20 has
 * no `process.threadCpuUsage()`, and /proc's `stat` counts in ticks of 10 ms.
 *
 * @example
 * ```ts
 * const clock = mainThreadClock();
 * const before = clock?.();
 * ```
 */
export function mainThreadClock(): (() => number) | undefined {
  const exact = threadCpuClock();
  if (exact !== undefined) return exact;
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
  const buffer = Buffer.alloc(128);
  return () => {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return Number(buffer.toString('latin1', 0, length).split(' ')[0]);
  };
}

/** The clock of {@link timed}, made at its first use. */
let callClock: (() => number) | undefined | null = null;

/**
 * Runs the synchronous `call`: its value, the main thread's CPU it took, ms, as the gaps
 * are counted (see {@link mainThreadClock}; its wall time where there is no clock), and
 * its wall time, which also counts other processes taking the core.
 *
 * @example
 * ```ts
 * const { value: outcome, ms, wallMs } = timed(() => conversation.end());
 * ```
 */
export function timed<T>(call: () => T): { value: T; ms: number; wallMs: number } {
  if (callClock === null) callClock = mainThreadClock();
  const clock = callClock;
  const cpuBefore = clock?.() ?? 0;
  const started = performance.now();
  const value = call();
  const wallMs = performance.now() - started;
  return { value, ms: clock === undefined ? wallMs : (clock() - cpuBefore) / 1e6, wallMs };
}

/** ms of the collector's `pauses` ([start, end] in `performance.now()` ms) within [from, to]. */
function collectingMs(pauses: readonly [number, number][], from: number, to: number): number {
  let ms = 0;
  for (const [start, end] of pauses) if (end > from && start < to) ms += Math.min(end, to) - Math.max(start, from);
  return ms;
}

/**
 * Watches the event loop: a chain of `setImmediate` that notes the longest gap between
 * two of its turns, which is the longest the host was kept from running (a timer, a
 * request handler) by whatever ran in between, and how much of it was the collector's
 * (`PerformanceObserver`'s `gc` entries, observed only while it watches: observing costs
 * every collection something, and the other benchmarks run in this process too).
 */
export function watchLoop(): { stop: () => Promise<LoopGaps> } {
  const pauses: [number, number][] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.startTime + entry.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  let last = performance.now();
  let longest: [number, number] = [last, last];
  let over10 = 0;
  let cpuMs = 0;
  let lastCpu = process.cpuUsage();
  const mainThreadNs = mainThreadClock();
  let mainCpuMs = mainThreadNs === undefined ? Number.NaN : 0;
  let mainOver10 = 0;
  let lastMain = mainThreadNs?.() ?? 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    cpuMs = Math.max(cpuMs, (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000);
    lastCpu = cpu;
    if (mainThreadNs !== undefined) {
      const main = mainThreadNs();
      const ms = (main - lastMain) / 1e6;
      mainCpuMs = Math.max(mainCpuMs, ms);
      if (ms > 10) mainOver10 += 1;
      lastMain = main;
    }
    if (now - last > longest[1] - longest[0]) longest = [last, now];
    if (now - last > 10) over10 += 1;
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: async () => {
      running = false;
      // The observer's entries arrive some turns after the pause they report.
      await new Promise((resolve) => setTimeout(resolve, 100));
      observer.disconnect();
      return { gapMs: longest[1] - longest[0], gcMs: collectingMs(pauses, ...longest), over10, cpuMs, mainCpuMs, mainOver10 };
    },
  };
}
