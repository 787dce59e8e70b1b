import type { DeliveryReport } from './delivery-report.js';
import { LANE, pace, paced } from './slices.js';
import type { Deadline } from './timers.js';

/** Options of `nebuly.shutdown`. */
export interface ShutdownOptions {
  /**
   * How long to wait for the last sends; then the requests still running are aborted and
   * what is left goes to `onError`. `Infinity`: as long as it takes.
   * @default the recorder's `shutdownTimeoutMs` (20 s)
   */
  timeoutMs?: number | undefined;
}

/** The recorder's parts that closing waits for, and how it lets go of what is open. */
export interface ClosingParts<C> {
  /**
   * The next conversation to let go of, the idlest still open; `undefined` once none is.
   * All were closed to recording at the call, at once; letting go of one takes it out.
   */
  next: () => C | undefined;
  /** Lets go of one open conversation (ends and sends it, or leaves it to a shared store). */
  letGo: (conversation: C) => void;
  /** How many more may be let go now (see `backlogRoom`); the rest wait, until the deadline. */
  room: () => number;
  /** Calls `wake` once the backlog has room again (a send settled), at once if it has. */
  onRoom: (wake: () => void) => void;
  /** Resolves once what was let go is stored and handed to the publisher. */
  handedOver: () => Promise<unknown>;
  /** Closes the publisher by the deadline, and resolves with its report. */
  closePublisher: (deadline: Deadline) => Promise<DeliveryReport>;
  /** Resolves once the store was told how every send ended. */
  settled: () => Promise<unknown>;
}

/**
 * Closes the recorder within `deadline` (set when `shutdown()` was called; this runs with
 * the stages, which may have had to load first): lets go of every open conversation, in
 * slices (there may be thousands), as fast as the backlog has room for them (woken as
 * their sends settle, not by a timer) and at once when the deadline passes, waits for
 * them to reach the publisher, closes it (aborting what still runs at the deadline), and
 * resolves with its report. The process stays alive until the deadline, whatever stage
 * the conversations are in.
 *
 * @example
 * ```ts
 * const delivery = await closeAll(parts, new Deadline(20_000));
 * ```
 */
export async function closeAll<C>(parts: ClosingParts<C>, deadline: Deadline): Promise<DeliveryReport> {
  // Not in the caller's call: shutdown() returns at once.
  await paced(LANE.end);
  let expired = false;
  let wake: (() => void) | undefined;
  // One reaction on the deadline for the whole wave: racing it at each wait would leave
  // one on it a wait, thousands, until it passes.
  void deadline.expired.then(() => {
    expired = true;
    wake?.();
  });
  for (let conversation = parts.next(); conversation !== undefined; conversation = parts.next()) {
    while (!expired && parts.room() <= 0) {
      // Told, not handed a promise: a wave waits once for nearly every conversation.
      await new Promise<void>((resolve) => {
        wake = resolve;
        parts.onRoom(resolve);
      });
    }
    parts.letGo(conversation);
    const wait = pace(LANE.end);
    if (wait !== undefined) await wait;
  }
  await Promise.race([parts.handedOver(), deadline.expired]);
  const delivery = await parts.closePublisher(deadline);
  deadline.clear();
  await Promise.race([parts.settled(), deadline.expired]);
  return delivery;
}
