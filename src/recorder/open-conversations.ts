import type { ActivityOrder, ConversationState } from './state.js';
import { startTimer } from './timers.js';

/** What the recorder keeps of an open conversation: its shared state, and how to end it. */
export interface OpenHandle {
  readonly state: ConversationState;
}

/** How many idle conversations one tick of the idle timer ends at most; the rest on the next tick. */
export const IDLE_PER_TICK = 256;

/** What {@link OpenConversations} watches for, and whom it tells. */
export interface OpenConversationsOptions<H> {
  /** How long without activity counts as idle; `0` or `Infinity`: never. */
  idleTimeoutMs: number;
  now: () => number;
  /** Called with each conversation found idle, once, after it was taken out. */
  onIdle: (handle: H) => void;
}

/**
 * The conversations open in this process, by key, in order of last activity: a list
 * whose nodes are the conversations' states, an active one moved to its end (O(1), when
 * its state records activity). The idlest is thus the first, found in O(1), and one timer
 * serves them all: it fires when the first would go idle, ends at most
 * {@link IDLE_PER_TICK} idle ones, and sleeps until the next would.
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
  #head: ConversationState | undefined;
  #tail: ConversationState | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: OpenConversationsOptions<H>) {
    this.#options = options;
  }

  get size(): number {
    return this.#byKey.size;
  }

  get(key: string): H | undefined {
    return this.#byKey.get(key);
  }

  /** Every open conversation, idlest first; a copy, so that the caller may end them as it goes. */
  handles(): H[] {
    const handles: H[] = [];
    for (let state = this.#head; state !== undefined; state = state.next) handles.push(this.#byKey.get(state.key) as H);
    return handles;
  }

  add(handle: H): void {
    const { state } = handle;
    if (this.#byKey.has(state.key)) return;
    this.#byKey.set(state.key, handle);
    this.#append(state);
    state.orderBy(this);
    this.#arm();
  }

  delete(handle: H): void {
    const { state } = handle;
    if (this.#byKey.get(state.key) !== handle) return;
    this.#byKey.delete(state.key);
    state.orderBy(undefined);
    this.#unlink(state);
    // Nothing left to go idle: no timer holds anything.
    if (this.#head === undefined) this.stop();
  }

  /** The least recently active, or `undefined` when none is open. */
  idlest(): H | undefined {
    return this.#head === undefined ? undefined : this.#byKey.get(this.#head.key);
  }

  moveToEnd(state: ConversationState): void {
    if (this.#tail === state) return;
    this.#unlink(state);
    this.#append(state);
  }

  /** Stops the idle timer; conversations stay listed. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #append(state: ConversationState): void {
    state.previous = this.#tail;
    state.next = undefined;
    if (this.#tail === undefined) this.#head = state;
    else this.#tail.next = state;
    this.#tail = state;
  }

  #unlink(state: ConversationState): void {
    if (state.previous === undefined) {
      if (this.#head === state) this.#head = state.next;
    } else {
      state.previous.next = state.next;
    }
    if (state.next === undefined) {
      if (this.#tail === state) this.#tail = state.previous;
    } else {
      state.next.previous = state.previous;
    }
    state.previous = undefined;
    state.next = undefined;
  }

  /** Sets the one timer for when the idlest would go idle, unless it is set already. */
  #arm(delayMs?: number): void {
    const { idleTimeoutMs, now } = this.#options;
    if (this.#timer !== undefined || this.#head === undefined) return;
    if (!(idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs))) return;
    // A clock that went backwards, or gives NaN, waits a full period rather than spin.
    const left = this.#head.lastActivityAt + idleTimeoutMs - now();
    const wait = delayMs ?? (Number.isFinite(left) ? Math.max(1, Math.min(left, idleTimeoutMs)) : idleTimeoutMs);
    this.#timer = startTimer(this.#tick, wait);
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    const { idleTimeoutMs, now, onIdle } = this.#options;
    const at = now();
    let ended = 0;
    while (this.#head !== undefined && at - this.#head.lastActivityAt >= idleTimeoutMs) {
      if (ended === IDLE_PER_TICK) {
        // More are idle: the next tick, after the host has run.
        this.#arm(0);
        return;
      }
      const handle = this.#byKey.get(this.#head.key) as H;
      this.delete(handle);
      onIdle(handle);
      ended += 1;
    }
    this.#arm();
  };
}
