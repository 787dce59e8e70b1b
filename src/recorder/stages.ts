import type { Mask } from '../core/privacy-options.js';
import type { ResolvedRecorderOptions } from '../core/recorder-options.js';
import type { ConversationStore } from '../types/store.js';
import { AbortError, type NebulyError } from '../core/errors.js';
import { LANE, pace, paced } from './slices.js';
import type { DeliveryReport } from './delivery-report.js';
import type { Deadline } from './timers.js';
import { LateSender } from './late.js';
import { type Cutoff, Outbox, type Transport } from './outbox.js';
import { Sender } from './sending.js';
import { MemoryStore } from './store/memory-store-class.js';
import { Storing } from './storing.js';

/** The recorder's background stages, connected: what an ended turn and conversation go through. */
export interface Stages {
  store: ConversationStore;
  /** Checks, masks and stores each ended interaction. */
  storing: Storing;
  /** Claims each ended conversation, fits it, and hands it to the outbox. */
  sender: Sender;
  /** Feedback and tags that arrive after their interaction was stored or sent. */
  late: LateSender;
  /** Sends bodies: the queue, its bound, retries, the shutdown deadline. */
  outbox: Outbox;
  /**
   * What `shutdown()` runs once it has closed the open conversations to recording: lets
   * go of them and closes the stages by the deadline ({@link closeAll}); resolves with the report.
   */
  close: <C>(parts: LettingGo<C>, deadline: Deadline) => Promise<DeliveryReport>;
  /** What `flush()` runs: resolves, after `before`, once what was taken before the call met its fate, with the report. */
  flush: (before: Promise<unknown>) => Promise<DeliveryReport>;
  /** Passes at shutdown's deadline: from then on no stage waits for the store or the service. */
  cutoff: Cutoff;
}

/** What {@link connectStages} needs. */
export interface StagesInit {
  options: ResolvedRecorderOptions;
  transport: Transport;
  report: (error: NebulyError) => void;
  mask: Mask | undefined;
  /** Called whenever a send settles or the queue drains: what is at risk at exit changed. */
  changed: () => void;
}

/**
 * Makes the recorder's stages and connects them: storing → sender → outbox, and late
 * feedback and tags beside them, all on one store (`recorder.store`, the memory store by default).
 *
 * @example
 * ```ts
 * const { storing, sender } = connectStages({ options, transport, report, mask: undefined, changed: () => undefined });
 * ```
 */
export function connectStages({ options, transport, report, mask, changed }: StagesInit): Stages {
  const store = options.store ?? new MemoryStore();
  const outbox = new Outbox({
    transport,
    report,
    maxConcurrentSends: options.maxConcurrentSends,
    maxQueuedConversations: options.maxQueuedConversations,
    maxQueuedBytes: options.maxQueuedBytes,
    drained: changed,
  });
  const { cutoff } = outbox;
  // With `delivery: 'interaction'`, storing an interaction sends it.
  const deliver: ConstructorParameters<typeof Storing>[0]['deliver'] =
    options.delivery === 'interaction'
      ? (conversation, stored) => {
          sender.sendInteraction(conversation, stored);
          late.keep(conversation, stored);
        }
      : undefined;
  // A shared store may stop answering (Redis down): its writes count against maxQueuedBytes.
  const storing = new Storing({ store, now: options.now, report, deliver, mask, cutoff, bound: store.shared ? outbox : undefined });
  const sender = new Sender({
    store,
    storing,
    outbox,
    report,
    now: options.now,
    leaseMs: options.leaseMs,
    maxConversationBytes: options.maxConversationBytes,
    feedbackRetentionMs: options.feedbackRetentionMs,
    settleMs: options.settleMs,
    cutoff,
    settled: changed,
  });
  const late = new LateSender({
    store,
    outbox,
    report,
    now: options.now,
    mask,
    cutoff,
    settleMs: store.shared ? options.settleMs : 0,
    stored: (key) => storing.pending(key),
    sending: () => sender.settled(),
    sentHere: (key, interactionId) => sender.sentInteraction(key, interactionId),
    retentionMs: options.feedbackRetentionMs,
  });
  const close = <C>(parts: LettingGo<C>, deadline: Deadline): Promise<DeliveryReport> => {
    outbox.beginFinal();
    const closing: ClosingParts<C> = {
      ...parts,
      handedOver: () => Promise.all([storing.drained(), sender.published(), late.drained()]),
      expire: (reason) => outbox.abandon(reason),
      published: () => outbox.flush(),
      settled: () => Promise.all([storing.drained(), sender.settled(), sender.sendsSettled(), late.drained()]),
      report: () => outbox.finalReport(),
    };
    return closeAll(closing, deadline);
  };
  // With `delivery: 'interaction'`, storing an interaction is sending it: what the stored
  // ones started is waited for too.
  const flush = (before: Promise<unknown>): Promise<DeliveryReport> =>
    Promise.all([storing.drained().then(() => sender.sendsSettled()), sender.settled(), late.drained(), before]).then(() => outbox.report());
  return { store, storing, sender, late, outbox, close, flush, cutoff };
}

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
