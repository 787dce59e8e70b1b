/** The fewest conversations the backlog holds, however few the send slots. */
const MIN_BACKLOG = 64;

/**
 * How many more conversations the recorder may let go of now, for them to be sent, when
 * `unsent` are already between their end and their outcome. A wave of thousands let go
 * at once would wait all together as jobs, promises and bodies, which every scavenge of
 * the heap copies while they wait: 10 to 20 ms of pause for 10,000. Let go as the ones
 * before them are sent, they wait as what they already were, open conversations. The
 * backlog is deep enough to keep every send slot busy twice over. Who waits for room is
 * told when a send settles: nothing polls.
 *
 * @example
 * ```ts
 * backlogRoom(40, 32); // 24: at most 64 wait, or twice the sends, if more
 * ```
 */
export function backlogRoom(unsent: number, maxConcurrentSends: number): number {
  return Math.max(MIN_BACKLOG, 2 * maxConcurrentSends) - unsent;
}
