import { AbortError } from '../core/errors.js';
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

/** How closing lets go of what is open: the recorder's part of {@link ClosingParts}. */
export type LettingGo<C> = Pick<ClosingParts<C>, 'next' | 'letGo' | 'room' | 'onRoom'>;

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
  /** Resolves once what was let go is stored and handed to the outbox (every store call bounded by the deadline). */
  handedOver: () => Promise<unknown>;
  /** The deadline passed: nothing more is awaited from the store or the service; what is held is reported. */
  expire: (reason: AbortError) => void;
  /** Resolves once the outbox settled everything it was handed. */
  published: () => Promise<unknown>;
  /** Resolves once every end, sweep, store write and feedback begun so far is over, and reported. */
  settled: () => Promise<unknown>;
  /** What `shutdown()` resolves with: the outcomes since its call. */
  report: () => DeliveryReport;
}

/**
 * Closes the recorder within `deadline` (set when `shutdown()` was called; this runs with
 * the stages, which may have had to load first): lets go of every open conversation, in
 * slices (there may be thousands), as fast as the backlog has room for them (woken as
 * their sends settle, not by a timer) and at once when the deadline passes. At the
 * deadline, requests are aborted and no store call is awaited any more; then everything
 * still held is reported, with its payload, and only after that does this resolve: a
 * program may exit right after `await shutdown()`. The process stays alive until the
 * deadline, whatever stage the conversations are in.
 *
 * @example
 * ```ts
 * const delivery = await closeAll(parts, new Deadline(20_000));
 * ```
 */
export async function closeAll<C>(parts: ClosingParts<C>, deadline: Deadline): Promise<DeliveryReport> {
  let expired = false;
  let wake: (() => void) | undefined;
  // One reaction on the deadline for the whole wave: racing it at each wait would leave
  // one on it a wait, thousands, until it passes.
  void deadline.expired.then(() => {
    expired = true;
    parts.expire(new AbortError(`shutdown() did not finish within ${deadline.timeoutMs} ms`));
    wake?.();
  });
  // Not in the caller's call: shutdown() returns at once.
  await paced(LANE.end);
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
  // None of these outlasts the deadline by more than the work of reporting what is left.
  await parts.handedOver();
  await parts.published();
  await parts.settled();
  deadline.clear();
  return parts.report();
}
