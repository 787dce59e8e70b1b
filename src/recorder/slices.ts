import { microtask } from '../utils/microtask.js';
import { Fifo } from './fifo.js';

/**
 * How long the recorder's background work may run before it yields to the host. What the
 * host sees is a slice plus the deliveries' continuations that follow it and any pause of
 * the garbage collector that falls in it. The pauses are the runtime's; the slice is the
 * part the SDK chooses: 1 ms leaves the most room for them, and the work takes as long
 * (decision 0003).
 */
export const SLICE_MS = 1;

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

/**
 * Which waiting work resumes first: the work nearest the wire. A conversation that is
 * being built into its body goes on before others begin, so that the first body reaches
 * the outbox after one conversation's work, not after every conversation's (the
 * network then works while the rest is built), and bodies are not built long before they
 * can be sent.
 */
export const LANE = {
  /** Building a claimed conversation's body, up to handing it to the outbox. */
  send: 0,
  /** Ending conversations: claiming them, letting them go at shutdown, sweeping. */
  end: 1,
  /** Checking and storing ended interactions. */
  store: 2,
} as const;

/** A lane of {@link LANE}. */
export type Lane = (typeof LANE)[keyof typeof LANE];

/** The current slice: when it began, and how many units it ran; `undefined` between slices. */
let slice: { start: number; units: number } | undefined;
/** Work that waits for the next slice, a queue per lane, each first come first served. */
let waiting: Fifo<() => void>[] = newLanes();
let resuming = false;

function newLanes(): Fifo<() => void>[] {
  return Object.values(LANE).map(() => new Fifo<() => void>());
}

/** Whether any work waits, in any lane. */
function anyWaiting(): boolean {
  for (const lane of waiting) if (lane.length > 0) return true;
  return false;
}

/** The first waiting work of the nearest lane that has any, taken off its queue. */
function takeNext(): (() => void) | undefined {
  for (const lane of waiting) {
    const next = lane.shift();
    if (next !== undefined) return next;
  }
  return undefined;
}

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
  // Made once a slice, not once for each work resumed in it.
  const resumed = (): void => {
    if (!anyWaiting()) return;
    if (slice === current && !sliceOver(current)) next();
    else scheduleResume();
  };
  const next = (): void => {
    const resolve = takeNext();
    if (resolve === undefined) return;
    resolve();
    // After the resumed work's own continuation, which was queued first.
    microtask(resumed);
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
 * recorder shares it; jobs that wait are resumed one at a time, as long as the slice
 * lasts: those of the nearest {@link LANE} first, and in a lane in the order they began
 * to wait.
 *
 * @example
 * ```ts
 * for (const interaction of interactions) {
 *   check(interaction);
 *   const wait = pace(LANE.store);
 *   if (wait !== undefined) await wait;
 * }
 * ```
 */
export function pace(lane: Lane): Promise<void> | undefined {
  const current = slice ?? beginSlice();
  current.units += 1;
  if (!sliceOver(current) && !anyWaiting()) return undefined;
  return new Promise((resolve) => {
    (waiting[lane] as Fifo<() => void>).push(resolve);
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
 *   await paced(LANE.send);
 * }
 * ```
 */
export function paced(lane: Lane): Promise<void> {
  return pace(lane) ?? RESOLVED;
}

const RESOLVED = Promise.resolve();

/** @internal For tests: forgets waiting work and the current slice. */
export function resetSlices(): void {
  slice = undefined;
  waiting = newLanes();
  resuming = false;
}
