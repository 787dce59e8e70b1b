import type { ActivityOrder, ConversationState } from './state.js';
import { LinkedList } from './linked-list.js';
import { isPeriod, startTimer } from './timers.js';

/** What the recorder keeps of an open conversation: its shared state, and how to end it. */
export interface OpenHandle {
  readonly state: ConversationState;
}

/**
 * How many idle conversations one tick of the idle timer ends at most; the rest on the
 * next tick, a millisecond later. Ending one costs about 10 µs: 256 a tick kept the
 * host's event loop 2 to 4 ms, and a pause of the collector landing in it made 10.
 */
export const IDLE_PER_TICK = 64;

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

/** What {@link OpenConversations} watches for, and whom it tells. */
export interface OpenConversationsOptions<H> {
  /** How long without activity counts as idle; `0` or `Infinity`: never. */
  idleTimeoutMs: number;
  now: () => number;
  /** Called with each conversation found idle, once, after it was taken out. */
  onIdle: (handle: H) => void;
  /**
   * How many more idle conversations `onIdle` can take now: those it is not given wait,
   * open, until {@link OpenConversations.roomFreed}. Unset: as many as go idle.
   */
  room?: (() => number) | undefined;
}

/**
 * The conversations open in this process, by key, in order of last activity: a list
 * whose nodes are the conversations' states, an active one moved to its end (O(1), when
 * its state records activity). The idlest is thus the first, found in O(1), and one timer
 * serves them all: it fires when the first would go idle, ends at most
 * {@link IDLE_PER_TICK} idle ones, and sleeps until the next would. When `room` says
 * fewer can be taken, the others stay open until the owner says there is room again
 * ({@link OpenConversations.roomFreed}): thousands going idle together are ended as fast
 * as they can be sent, not all at once into a backlog, and nothing polls meanwhile.
 *
 * @example
 * ```ts
 * const open = new OpenConversations({ idleTimeoutMs: 900_000, now: Date.now, onIdle: (handle) => end(handle) });
 * open.add(handle);
 * open.idlest(); // the least recently active
 * ```
 */
export class OpenConversations<H extends OpenHandle> implements ActivityOrder {
  readonly #options: OpenConversationsOptions<H>;
  readonly #byKey = new Map<string, H>();
  readonly #order = new LinkedList<ConversationState>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The last tick left idle conversations open for want of room. */
  #waitingForRoom = false;

  constructor(options: OpenConversationsOptions<H>) {
    this.#options = options;
  }

  get size(): number {
    return this.#byKey.size;
  }

  get(key: string): H | undefined {
    return this.#byKey.get(key);
  }

  /** Every open one, in no particular order (at exit, to say what is lost). */
  values(): IterableIterator<H> {
    return this.#byKey.values();
  }

  add(handle: H): void {
    const { state } = handle;
    if (this.#byKey.has(state.key)) return;
    this.#byKey.set(state.key, handle);
    this.#order.append(state);
    state.orderBy(this);
    this.#arm();
  }

  delete(handle: H): void {
    const { state } = handle;
    if (this.#byKey.get(state.key) !== handle) return;
    this.#byKey.delete(state.key);
    state.orderBy(undefined);
    this.#order.unlink(state);
    // Nothing left to go idle: no timer holds anything.
    if (this.#order.head === undefined) this.stop();
  }

  /** The least recently active, or `undefined` when none is open. */
  idlest(): H | undefined {
    return this.#order.head === undefined ? undefined : this.#byKey.get(this.#order.head.key);
  }

  /** Whether `handle` has been idle for the time-out: ended at the next tick with room. */
  isIdle(handle: H): boolean {
    return isPeriod(this.#options.idleTimeoutMs) && this.#idleAt(handle.state, this.#options.now());
  }

  /** Whether `state` has been idle for the time-out at `at`. */
  #idleAt(state: ConversationState, at: number): boolean {
    return at - state.lastActivityAt >= this.#options.idleTimeoutMs;
  }

  moveToEnd(state: ConversationState): void {
    this.#order.moveToEnd(state);
  }

  /** Stops the idle timer, and any wait for room; conversations stay listed. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waitingForRoom = false;
  }

  /**
   * The owner's backlog has room again: a tick that left idle conversations open for want
   * of it runs again, from a timer of its own (not in the caller's call).
   */
  roomFreed(): void {
    if (!this.#waitingForRoom) return;
    this.#waitingForRoom = false;
    this.#arm(0);
  }

  /** Sets the one timer for when the idlest would go idle, unless it is set already. */
  #arm(delayMs?: number): void {
    const { idleTimeoutMs, now } = this.#options;
    if (this.#timer !== undefined || this.#order.head === undefined) return;
    if (!isPeriod(idleTimeoutMs)) return;
    // A clock that went backwards, or gives NaN, waits a full period rather than spin.
    const left = this.#order.head.lastActivityAt + idleTimeoutMs - now();
    const wait = delayMs ?? (Number.isFinite(left) ? Math.max(1, Math.min(left, idleTimeoutMs)) : idleTimeoutMs);
    this.#timer = startTimer(this.#tick, wait);
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    const { now, onIdle, room } = this.#options;
    const at = now();
    const limit = Math.min(IDLE_PER_TICK, room?.() ?? IDLE_PER_TICK);
    let ended = 0;
    while (this.#order.head !== undefined && this.#idleAt(this.#order.head, at)) {
      if (ended >= limit) {
        // More are idle: the next tick, after the host has run, or, with no room left,
        // once some of what was taken has gone (roomFreed).
        if (limit === IDLE_PER_TICK) this.#arm(0);
        else this.#waitingForRoom = true;
        return;
      }
      const handle = this.#byKey.get(this.#order.head.key) as H;
      this.delete(handle);
      onIdle(handle);
      ended += 1;
    }
    this.#arm();
  };
}
