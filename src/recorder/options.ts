/**
 * Options of the conversation recorder, passed as `new NebulyClient({ recorder })`.
 * Every default is spelled out in {@link RECORDER_DEFAULTS}.
 */
export interface RecorderOptions {
  /**
   * A conversation with no new interaction for this long is ended and sent on its own.
   * @default 900_000 (15 minutes)
   */
  idleTimeoutMs?: number;
  /**
   * How many conversations are sent at once.
   * @default 4
   */
  maxConcurrentSends?: number;
  /**
   * How many ended, unsent conversations are kept; past this, a conversation goes to
   * `onError` with its payload instead of the queue.
   * @default 1000
   */
  maxQueuedConversations?: number;
  /**
   * How many bytes of JSON the ended, unsent conversations may hold; past this, a
   * conversation goes to `onError` with its payload instead of the queue.
   * @default 52_428_800 (50 MiB)
   */
  maxQueuedBytes?: number;
  /**
   * A conversation whose JSON is larger than this has its longest strings cropped, with a
   * visible marker, so that it is not refused with 413. The official Python SDK's limit.
   * @default 500_000
   */
  maxConversationBytes?: number;
  /**
   * How long `shutdown()` waits for the last sends by default; what is left then goes to
   * `onError`.
   * @default 10_000
   */
  shutdownTimeoutMs?: number;
  /**
   * The clock of `time_start` and `time_end`, in milliseconds since the epoch. Tests
   * replace it.
   * @default Date.now
   */
  now?: () => number;
}

/** The recorder's options with every default filled in. */
export type ResolvedRecorderOptions = Required<RecorderOptions>;

/** The recorder's defaults. */
export const RECORDER_DEFAULTS: Readonly<ResolvedRecorderOptions> = Object.freeze({
  idleTimeoutMs: 15 * 60_000,
  maxConcurrentSends: 4,
  maxQueuedConversations: 1000,
  maxQueuedBytes: 50 * 1024 * 1024,
  maxConversationBytes: 500_000,
  shutdownTimeoutMs: 10_000,
  now: Date.now,
});
