import type { ConversationStore } from '../types/store.js';

// The recorder's options are declared here, in core, beside the client's others: the
// client's options (options.ts) hold them, and the recorder reads them, each from below.

/**
 * Options of the conversation recorder, passed as `new NebulyClient({ recorder })`.
 * Every default is spelled out in {@link RECORDER_DEFAULTS}; docs/recorder.md explains
 * how they work together.
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
   * How many conversations are sent at once; the others wait in the queue. A send holds
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
   * How many bytes of JSON (UTF-8) the ended, unsent conversations may hold: the bound
   * that governs the queue's memory. Past it, a conversation goes to `onError` in a
   * `QueueFullError` with its payload instead of the queue; the conversations refused in
   * one burst share one error. 50 MiB holds 25,000 conversations of 2 kB, or 100 at
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
   * `nebuly.feedback()`: what the feedback endpoint needs of it (input, output, end user,
   * time) is kept in the store for this long.
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
  // Read through `Date` on each call, not bound once, so that fake timers that replace
  // `Date` also move the recorder's clock.
  now: () => Date.now(),
});

/** What a numeric option must be; `Infinity` is allowed for a bound that may be left off. */
type Kind = 'number' | 'integer' | 'integer or Infinity';

function atLeast(name: string, value: number, minimum: number, kind: Kind): number {
  const whole = Number.isInteger(value) || (kind === 'integer or Infinity' && value === Number.POSITIVE_INFINITY);
  const valid = typeof value === 'number' && value >= minimum && (kind === 'number' ? !Number.isNaN(value) : whole);
  if (!valid) {
    const what = kind === 'number' ? 'a number' : kind === 'integer' ? 'a whole number' : 'a whole number or Infinity';
    throw new TypeError(`nebuly-client: \`recorder.${name}\` must be ${what}, ${minimum} or more`);
  }
  return value;
}

/**
 * Fills in the defaults of the recorder's options and checks their ranges once, at
 * construction, so that a misconfiguration fails loudly instead of dropping data later.
 *
 * @throws TypeError naming the option that is out of range.
 */
export function resolveRecorderOptions(options: RecorderOptions = {}): ResolvedRecorderOptions {
  const {
    idleTimeoutMs = RECORDER_DEFAULTS.idleTimeoutMs,
    maxOpenConversations = RECORDER_DEFAULTS.maxOpenConversations,
    maxConcurrentSends = RECORDER_DEFAULTS.maxConcurrentSends,
    maxQueuedConversations = RECORDER_DEFAULTS.maxQueuedConversations,
    maxQueuedBytes = RECORDER_DEFAULTS.maxQueuedBytes,
    maxConversationBytes = RECORDER_DEFAULTS.maxConversationBytes,
    shutdownTimeoutMs = RECORDER_DEFAULTS.shutdownTimeoutMs,
    sendOnExit = RECORDER_DEFAULTS.sendOnExit,
    now = RECORDER_DEFAULTS.now,
    store,
    delivery = RECORDER_DEFAULTS.delivery,
    leaseMs = RECORDER_DEFAULTS.leaseMs,
    feedbackRetentionMs = RECORDER_DEFAULTS.feedbackRetentionMs,
    sweepIntervalMs = RECORDER_DEFAULTS.sweepIntervalMs,
  } = options;
  if (delivery !== 'conversation' && delivery !== 'interaction') {
    throw new TypeError("nebuly-client: `recorder.delivery` must be 'conversation' or 'interaction'");
  }
  if (store !== undefined && !isStore(store)) {
    throw new TypeError(
      'nebuly-client: `recorder.store` must be a ConversationStore (memoryStore(), redisStore(client), or an object with its methods)',
    );
  }
  if (typeof sendOnExit !== 'boolean') throw new TypeError('nebuly-client: `recorder.sendOnExit` must be true or false');
  if (typeof now !== 'function') throw new TypeError('nebuly-client: `recorder.now` must be a function');
  return {
    idleTimeoutMs: atLeast('idleTimeoutMs', idleTimeoutMs, 0, 'number'),
    maxOpenConversations: atLeast('maxOpenConversations', maxOpenConversations, 1, 'integer or Infinity'),
    maxConcurrentSends: atLeast('maxConcurrentSends', maxConcurrentSends, 1, 'integer'),
    maxQueuedConversations: atLeast('maxQueuedConversations', maxQueuedConversations, 1, 'integer or Infinity'),
    maxQueuedBytes: atLeast('maxQueuedBytes', maxQueuedBytes, 1, 'number'),
    maxConversationBytes: atLeast('maxConversationBytes', maxConversationBytes, 1, 'number'),
    shutdownTimeoutMs: atLeast('shutdownTimeoutMs', shutdownTimeoutMs, 0, 'number'),
    sendOnExit,
    now,
    store,
    delivery,
    leaseMs: atLeast('leaseMs', leaseMs, 1, 'number'),
    feedbackRetentionMs: atLeast('feedbackRetentionMs', feedbackRetentionMs, 0, 'number'),
    sweepIntervalMs: atLeast('sweepIntervalMs', sweepIntervalMs, 0, 'number'),
  };
}

const STORE_METHODS = ['append', 'addFeedback', 'claim', 'claimIdle', 'complete', 'release', 'sent'] as const;

/** Whether `value` has every method of a store: a misconfiguration fails at construction, not at the first turn. */
function isStore(value: unknown): value is ConversationStore {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.shared === 'boolean' && STORE_METHODS.every((method) => typeof record[method] === 'function');
}
