/**
 * How long a wave of conversations being let go (idle together, open at shutdown) waits,
 * when the backlog is full, before it asks {@link backlogRoom} again.
 */
export const ROOM_RETRY_MS = 5;

/** The fewest conversations the backlog holds, however few the send slots. */
const MIN_BACKLOG = 256;

/**
 * How many more conversations the recorder may let go of now, for them to be sent, when
 * `unsent` are already between their end and their outcome. A wave of thousands let go
 * at once would wait all together as jobs, promises and bodies, which every scavenge of
 * the heap copies while they wait: 10 to 20 ms of pause for 10,000. Let go as the ones
 * before them are sent, they wait as what they already were, open conversations. The
 * backlog is deep enough to keep every send slot busy twice over.
 *
 * @example
 * ```ts
 * backlogRoom(200, 32); // 56: at most 256 wait, or twice the sends, if more
 * ```
 */
export function backlogRoom(unsent: number, maxConcurrentSends: number): number {
  return Math.max(MIN_BACKLOG, 2 * maxConcurrentSends) - unsent;
}
