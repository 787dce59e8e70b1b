/** How long the recorder's background work may run before it yields to the host. */
export const SLICE_MS = 4;

/**
 * The most units of work in one slice: on runtimes whose clock stands still while code
 * runs (Cloudflare Workers), the time limit alone would never end a slice.
 */
const MAX_UNITS_PER_SLICE = 1_000;

const clock: () => number =
  typeof performance === 'object' && typeof performance.now === 'function' ? () => performance.now() : Date.now;

/**
 * Runs `next` after the host had its turn (its I/O, its timers): `setImmediate` where there
 * is one (Node, Bun), which neither fake nor clamped timers slow down, else a zero timer.
 */
const afterHost: (next: () => void) => void =
  typeof setImmediate === 'function' ? (next) => setImmediate(next) : (next) => setTimeout(next, 0);

/** The current slice: when it began, and how many units it ran; `undefined` between slices. */
let slice: { start: number; units: number } | undefined;
/** Work that waits for the next slice, first come first served. */
let waiting: (() => void)[] = [];
let resuming = false;

/** Begins a slice, which ends on its own once the host has had its next turn. */
function beginSlice(): { start: number; units: number } {
  const begun = { start: clock(), units: 0 };
  slice = begun;
  afterHost(() => {
    if (slice === begun) slice = undefined;
  });
  return begun;
}

function sliceOver(current: { start: number; units: number }): boolean {
  return clock() - current.start >= SLICE_MS || current.units >= MAX_UNITS_PER_SLICE;
}

/**
 * Resumes waiting work one at a time, each once the one before has run up to its next
 * wait, for as long as the slice lasts; then leaves the rest to the next turn of the host.
 */
function resumeWaiting(): void {
  resuming = false;
  const current = beginSlice();
  const next = (): void => {
    const resolve = waiting.shift();
    if (resolve === undefined) return;
    resolve();
    // After the resumed work's own continuation, which was queued first.
    queueMicrotask(() => {
      if (waiting.length === 0) return;
      if (slice === current && !sliceOver(current)) next();
      else scheduleResume();
    });
  };
  next();
}

function scheduleResume(): void {
  if (resuming) return;
  resuming = true;
  afterHost(resumeWaiting);
}

/**
 * The recorder's background work calls this between two small units of work (checking
 * one interaction, serializing one, ending one conversation). While the current slice is
 * shorter than {@link SLICE_MS} it answers `undefined`: go on at once, at no cost. Past
 * that it answers a promise to await, which resolves in a later slice, after the host
 * has run, so that the host's event loop is never blocked for longer than a slice, however
 * much work there is and however many jobs share it.
 *
 * A slice is the work done within one turn of the host's event loop. Every job of the
 * recorder shares it; jobs that wait are resumed in the order they began to wait, one
 * at a time, as long as the slice lasts.
 *
 * @example
 * ```ts
 * for (const interaction of interactions) {
 *   check(interaction);
 *   const wait = pace();
 *   if (wait !== undefined) await wait;
 * }
 * ```
 */
export function pace(): Promise<void> | undefined {
  const current = slice ?? beginSlice();
  current.units += 1;
  if (!sliceOver(current) && waiting.length === 0) return undefined;
  return new Promise((resolve) => {
    waiting.push(resolve);
    scheduleResume();
  });
}

/**
 * {@link pace} for an `await`: resolves at once while the slice lasts (one microtask),
 * after the host's turn past it.
 *
 * @example
 * ```ts
 * for (const item of items) {
 *   work(item);
 *   await paced();
 * }
 * ```
 */
export function paced(): Promise<void> {
  return pace() ?? RESOLVED;
}

const RESOLVED = Promise.resolve();

/** @internal For tests: forgets waiting work and the current slice. */
export function resetSlices(): void {
  slice = undefined;
  waiting = [];
  resuming = false;
}
