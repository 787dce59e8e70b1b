import type { ConversationStore } from '../types/store.js';
import type { Issue } from '../utils/issues.js';
import { checkOptions, constructionError, type OptionSpec } from './option-checks.js';
import { flag, func, number, oneOf, valueOf } from './option-kinds.js';

// The recorder's options are declared here, in core, beside the client's others: the
// client's options (options.ts) hold them, and the recorder reads them, each from below.

/**
 * Options of the conversation recorder, passed as `new NebulyClient({ recorder })`.
 * Every default is in docs/options.md (generated from `RECORDER_OPTIONS`); docs/recorder.md
 * explains how they work together.
 *
 * @example
 * ```ts
 * const nebuly = new NebulyClient({
 *   recorder: { idleTimeoutMs: 5 * 60_000, maxConcurrentSends: 8 },
 *   onError: (error) => logger.warn(error),
 * });
 * ```
 */
export interface RecorderOptions {
  /**
   * A conversation with no new interaction, step or feedback for this long is ended and
   * sent on its own, as if `conversation.end()` had been called. `0` or `Infinity`:
   * never; every conversation must then be ended by `end()` or `shutdown()`.
   * @default 900_000 (15 minutes)
   */
  idleTimeoutMs?: number | undefined;
  /**
   * How many conversations may be open at once. Starting one more first ends the one idle
   * for longest (no interaction, step or feedback for the longest time) and sends it as
   * if `end()` had been called; it is reported as a `RecordingError` with code
   * `conversation_evicted`, and later calls on it are not recorded. Nothing is dropped:
   * this bounds the memory of conversations that are never ended (10,000 of 2 kB each
   * hold about 20 MB). `Infinity`: no bound.
   * @default 10_000
   */
  maxOpenConversations?: number | undefined;
  /**
   * How many conversations are sent at once at most; the others wait in the queue. While
   * sends fail for the service's sake (time-outs, 429, 5xx), the recorder lowers its limit,
   * to a quarter of this at the least, and raises it back as sends are delivered. A send holds
   * its slot while its retries wait (backoff, `Retry-After`), so under faults this, not
   * the network, bounds delivery: 1,000 conversations ended at once with 35 % of attempts
   * failing (`npm run soak`) need about 400 slot-seconds; 4 slots delivered 89 in 10 s,
   * 32 deliver all but the ~0.5 % that fail every retry within 20 s. See docs/recorder.md.
   * @default 32
   */
  maxConcurrentSends?: number | undefined;
  /**
   * How many ended, unsent conversations are kept (those being sent are not counted), on
   * top of `maxQueuedBytes`; past this, a conversation goes to `onError` in a
   * `QueueFullError` with its payload instead of the queue. Memory is governed by
   * `maxQueuedBytes`: set this only to bound the count as well.
   * @default Infinity (no bound by count)
   */
  maxQueuedConversations?: number | undefined;
  /**
   * How much memory the ended conversations waiting to be sent or being sent may take:
   * their UTF-8 bodies, 6 KiB for each besides, and, with a store in this process's memory
   * (the default), its copy of each (the body's size for ASCII text, twice that
   * otherwise); before a body is built, what its interactions hold; and each ended
   * interaction until the store took it, so that a burst faster than the background work,
   * or a store that stopped answering, cannot pile them up. Past it, a conversation goes
   * to `onError` in a `QueueFullError` with its payload instead of the queue, whole: with
   * a store in this process's memory, a turn ended past it waits with its conversation,
   * whose end stores it, or refuses it with the rest at once; with a shared store or
   * `delivery: 'interaction'`, such an interaction is refused on its own, under its own
   * id as key. Those refused in one burst share one error.
   * 50 MiB holds some 5,200 conversations of 2 kB of ASCII, or 33 to 52 at
   * `maxConversationBytes`.
   * @default 52_428_800 (50 MiB)
   */
  maxQueuedBytes?: number | undefined;
  /**
   * A conversation whose JSON (UTF-8) is larger than this has its longest strings cropped,
   * each ending in a visible `… [cropped N chars]`, until it fits, so that it is not
   * refused with 413. The official Python SDK's limit.
   * @default 500_000
   */
  maxConversationBytes?: number | undefined;
  /**
   * How long `shutdown()` waits for the last sends when it is given no `timeoutMs`; then
   * the requests still running are aborted and what is left goes to `onError`.
   * `Infinity`: wait as long as it takes. 20 s: long enough for the fault soak's 1,000
   * conversations (`npm run soak`), short enough to fit in Kubernetes' default 30 s
   * grace period after SIGTERM.
   * @default 20_000
   */
  shutdownTimeoutMs?: number | undefined;
  /**
   * Where the runtime has a `process` (Node, Bun, Deno): when the event loop empties
   * (`beforeExit`) with conversations still open, end and send them as `shutdown()`
   * would, within `shutdownTimeoutMs`, so that a script that never calls `shutdown()`
   * loses nothing. The recorder is then shut down. `false`: leave them; the exit is then
   * reported instead. Either way, a process that exits with conversations not sent
   * (`process.exit()`, or this off) reports it once to `onError` as a `RecordingError`
   * with code `unsent_at_exit`, naming how many. Signals are not handled: see
   * docs/recorder.md for the pattern. The listener never keeps the process alive, and
   * is there only while a conversation is open or unsent.
   * @default true
   */
  sendOnExit?: boolean | undefined;
  /**
   * Where open conversations are kept between the end of an interaction and the sending
   * of its conversation. `memoryStore()`: this process's memory (what one process needs).
   * A shared store (`redisStore` from `nebuly-client/redis`) lets every instance of a
   * backend record turns of the same conversation, end it or find it idle, and keeps
   * what a crash would lose. See docs/deployments.md.
   * @default memoryStore()
   */
  store?: ConversationStore | undefined;
  /**
   * How recorded interactions reach the service. `'conversation'`: each conversation in
   * one request to the bulk endpoint when it ends. `'interaction'`: each interaction as
   * soon as it ends, to the single-interaction endpoint with its `conversation_id` (how
   * Nebuly's own tools send), which needs no shared store to span instances: the service
   * groups them. See docs/deployments.md for when to pick which.
   * @default 'conversation'
   */
  delivery?: 'conversation' | 'interaction' | undefined;
  /**
   * How long a conversation being sent stays claimed by its sender. A sender that dies
   * mid-send leaves it to be claimed and sent again (with the same `Idempotency-Key`)
   * once this has passed: longer than the slowest send with every retry.
   * @default 300_000 (5 minutes)
   */
  leaseMs?: number | undefined;
  /**
   * How long after its conversation was sent an interaction can still get feedback from
   * `nebuly.feedback()` and tags from `nebuly.tag()`: what the feedback and tags endpoints
   * need of it (input, output, end user, times) is kept in the store for this long.
   * @default 86_400_000 (24 hours)
   */
  feedbackRetentionMs?: number | undefined;
  /**
   * How often a process looks in a shared store for conversations idle past
   * `idleTimeoutMs` (or left by a sender that died), and sends them: one timer per
   * process. `0` or `Infinity`: never on its own; call `nebuly.sweep()` (a cron route in
   * serverless). Unused with the memory store, whose idle conversations are ended by one
   * timer as they go idle.
   * @default 60_000
   */
  sweepIntervalMs?: number | undefined;
  /**
   * With a shared store: how long the end of a conversation waits before it takes the
   * conversation from the store, for turns other instances ended just before and are
   * still writing (a turn ended on one instance as the next request, which ends the
   * conversation, reaches another); feedback for an interaction not yet in the store is
   * retried for as long. Each end waits on its own, off the caller's path; `flush()`
   * waits for it. `0`: no wait (then `await nebuly.flush()` before answering a request
   * whose turn another instance may end). Unused with the memory store.
   * @default 1_500
   */
  settleMs?: number | undefined;
  /**
   * The clock of `time_start`, `time_end` and idle detection, in milliseconds since the
   * epoch. Tests replace it.
   * @default () => Date.now()
   */
  now?: (() => number) | undefined;
}

/** The recorder's options with every default filled in, but the store, made by the recorder. */
export type ResolvedRecorderOptions = {
  [K in Exclude<keyof RecorderOptions, 'store'>]-?: Exclude<RecorderOptions[K], undefined>;
} & { store: ConversationStore | undefined };

/** The recorder's defaults. */
export const RECORDER_DEFAULTS: Readonly<ResolvedRecorderOptions> = Object.freeze({
  idleTimeoutMs: 15 * 60_000,
  maxOpenConversations: 10_000,
  // Chosen with `npm run soak`: see docs/recorder.md, "Delivery under faults".
  maxConcurrentSends: 32,
  maxQueuedConversations: Number.POSITIVE_INFINITY,
  maxQueuedBytes: 50 * 1024 * 1024,
  maxConversationBytes: 500_000,
  shutdownTimeoutMs: 20_000,
  sendOnExit: true,
  store: undefined,
  delivery: 'conversation',
  leaseMs: 5 * 60_000,
  feedbackRetentionMs: 24 * 60 * 60_000,
  sweepIntervalMs: 60_000,
  settleMs: 1_500,
  // Read through `Date` on each call, not bound once, so that fake timers that replace
  // `Date` also move the recorder's clock.
  now: () => Date.now(),
});

const STORE_METHODS = ['append', 'attach', 'claim', 'claimIdle', 'complete', 'keep', 'release', 'sent'] as const;

/** Whether `value` has every method of a store: a misconfiguration fails at construction, not at the first turn. */
function isStore(value: unknown): value is ConversationStore {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.shared === 'boolean' && STORE_METHODS.every((method) => typeof record[method] === 'function');
}

const D = RECORDER_DEFAULTS;
/** A duration that may be `Infinity` (never), from `min` ms. */
const duration = (min: number) => number({ min, unit: 'milliseconds' });

/**
 * Every option of {@link RecorderOptions}, its check and its default: checked against
 * the interface both ways by the type, and with the client's others at construction.
 *
 * @example
 * ```ts
 * const CLIENT_OPTIONS = { recorder: group(RECORDER_OPTIONS) };
 * ```
 */
export const RECORDER_OPTIONS: { readonly [K in keyof RecorderOptions]-?: OptionSpec<Exclude<RecorderOptions[K], undefined>, ResolvedRecorderOptions[K]> } = {
  idleTimeoutMs: duration(0).or(D.idleTimeoutMs),
  maxOpenConversations: number({ min: 1, whole: true, orInfinity: true }).or(D.maxOpenConversations),
  maxConcurrentSends: number({ min: 1, whole: true }).or(D.maxConcurrentSends),
  maxQueuedConversations: number({ min: 1, whole: true, orInfinity: true }).or(D.maxQueuedConversations),
  maxQueuedBytes: number({ min: 1 }).or(D.maxQueuedBytes),
  maxConversationBytes: number({ min: 1 }).or(D.maxConversationBytes),
  shutdownTimeoutMs: duration(0).or(D.shutdownTimeoutMs),
  sendOnExit: flag().or(D.sendOnExit),
  store: valueOf<ConversationStore>('a ConversationStore (memoryStore(), redisStore(client), or an object with its methods)', isStore),
  delivery: oneOf(['conversation', 'interaction'] as const).or(D.delivery),
  leaseMs: duration(1).or(D.leaseMs),
  feedbackRetentionMs: duration(0).or(D.feedbackRetentionMs),
  sweepIntervalMs: duration(0).or(D.sweepIntervalMs),
  settleMs: duration(0).or(D.settleMs),
  now: func<() => number>().or(D.now),
};

/**
 * Fills in the defaults of the recorder's options and checks them once, at
 * construction, so that a misconfiguration fails loudly instead of dropping data later.
 * Options the client has resolved pass unchanged.
 *
 * @throws TypeError naming every option that is unknown, of the wrong type or out of range.
 * @example
 * ```ts
 * resolveRecorderOptions({ leaseMs: 0 }); // TypeError: nebuly-client: `recorder.leaseMs` must be …
 * ```
 */
export function resolveRecorderOptions(options: RecorderOptions = {}): ResolvedRecorderOptions {
  const issues: Issue[] = [];
  const resolved = checkOptions(options, RECORDER_OPTIONS, { path: ['recorder'], issues });
  if (issues.length > 0) throw constructionError(issues);
  return resolved;
}
