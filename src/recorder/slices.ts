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

/** When the current slice began; `undefined` between slices. */
let sliceStart: number | undefined;
let units = 0;

/**
 * The recorder's background work calls this between two small units of work (checking
 * one interaction, serializing one, ending one conversation). While the current slice is
 * shorter than {@link SLICE_MS} it answers `undefined`: go on at once, at no cost. Past
 * that it answers a promise to await, which resolves once the host has run, so that the
 * host's event loop is never blocked for longer than a slice, however much work there is.
 *
 * A slice is the work done within one macrotask of the host: the first call of a slice
 * schedules its end after the host's next turn. Every job of the recorder shares it, so
 * that jobs running side by side do not each take a full slice.
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
  const now = clock();
  if (sliceStart === undefined) {
    sliceStart = now;
    units = 0;
    afterHost(endSlice);
    return undefined;
  }
  units += 1;
  if (now - sliceStart < SLICE_MS && units < MAX_UNITS_PER_SLICE) return undefined;
  return new Promise((resolve) => afterHost(resolve));
}

function endSlice(): void {
  sliceStart = undefined;
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
