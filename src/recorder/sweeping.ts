import type { Sender } from './sending.js';
import { LANE, paced } from './slices.js';

/** How many conversations one sweep claims at a time: bounded work per store call. */
const SWEEP_BATCH = 100;

/**
 * Ends and sends the conversations of a shared store that are idle everywhere (no
 * activity since `idleBefore`), or that a sender left unsent (its lease expired): claims
 * them in batches, each handed to the sender, until a claim finds nothing. The recorder's
 * `sweep()` runs it with the stages, on `nebuly.sweep()` and every `sweepIntervalMs`.
 *
 * @example
 * ```ts
 * await sweepIdle(sender, Date.now() - idleTimeoutMs);
 * ```
 */
export async function sweepIdle(sender: Pick<Sender, 'sweep'>, idleBefore: number): Promise<void> {
  // Each claim takes no more than can be built at once.
  while ((await sender.sweep(idleBefore, SWEEP_BATCH)) > 0) await paced(LANE.end);
}
