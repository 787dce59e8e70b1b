import type { NebulyError } from '../core/errors.js';
import type { Mask } from '../core/privacy-options.js';
import type { ResolvedRecorderOptions } from '../core/recorder-options.js';
import type { ConversationStore } from '../types/store.js';
import { type ClosingParts, closeAll, type LettingGo } from './closing.js';
import type { DeliveryReport } from './delivery-report.js';
import type { Deadline } from './timers.js';
import { LateSender } from './late.js';
import { Publisher, type Transport } from './publisher.js';
import { Sender } from './sending.js';
import { MemoryStore } from './store/memory-store-class.js';
import { Storing } from './storing.js';
import { sweepIdle } from './sweeping.js';
import { Cutoff } from './cutoff.js';

/** The recorder's background stages, connected: what an ended turn and conversation go through. */
export interface Stages {
  store: ConversationStore;
  /** Checks, masks and stores each ended interaction. */
  storing: Storing;
  /** Claims each ended conversation, fits it, and hands it to the publisher. */
  sender: Sender;
  /** Feedback and tags that arrive after their interaction was stored or sent. */
  late: LateSender;
  /** Sends bodies: the queue, its bound, retries, the shutdown deadline. */
  publisher: Publisher;
  /**
   * What `shutdown()` runs once it has closed the open conversations to recording: lets
   * go of them and closes the stages by the deadline (`closing.ts`); resolves with the report.
   */
  close: <C>(parts: LettingGo<C>, deadline: Deadline) => Promise<DeliveryReport>;
  /** What `flush()` runs: resolves, after `before`, once what was taken before the call met its fate, with the report. */
  flush: (before: Promise<unknown>) => Promise<DeliveryReport>;
  /** What `sweep()` runs: idle conversations of a shared store claimed in batches (`sweeping.ts`). */
  sweepIdle: typeof sweepIdle;
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
 * Makes the recorder's stages and connects them: storing → sender → publisher, and
 * late feedback and tags beside them, all on one store (`recorder.store`, the memory store by default).
 *
 * @example
 * ```ts
 * const { storing, sender } = connectStages({ options, transport, report, mask: undefined, changed: () => undefined });
 * ```
 */
export function connectStages({ options, transport, report, mask, changed }: StagesInit): Stages {
  const cutoff = new Cutoff();
  const store = options.store ?? new MemoryStore();
  const publisher = new Publisher({
    transport,
    report,
    maxConcurrentSends: options.maxConcurrentSends,
    maxQueuedConversations: options.maxQueuedConversations,
    maxQueuedBytes: options.maxQueuedBytes,
    drained: changed,
  });
  // With `delivery: 'interaction'`, storing an interaction sends it.
  const deliver: ConstructorParameters<typeof Storing>[0]['deliver'] =
    options.delivery === 'interaction'
      ? (conversation, stored) => {
          sender.sendInteraction(conversation, stored);
          late.keep(conversation, stored);
        }
      : undefined;
  const storing = new Storing({ store, now: options.now, report, deliver, mask, cutoff });
  const sender = new Sender({
    store,
    storing,
    publisher,
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
    publisher,
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
    publisher.beginFinal();
    const closing: ClosingParts<C> = {
      ...parts,
      handedOver: () => Promise.all([storing.drained(), sender.published(), late.drained()]),
      expire: (reason) => {
        cutoff.pass(reason);
        publisher.abandon(reason);
      },
      published: () => publisher.flush(),
      settled: () => Promise.all([storing.drained(), sender.settled(), sender.sendsSettled(), late.drained()]),
      report: () => publisher.finalReport(),
    };
    return closeAll(closing, deadline);
  };
  // With `delivery: 'interaction'`, storing an interaction is sending it: what the stored
  // ones started is waited for too.
  const flush = (before: Promise<unknown>): Promise<DeliveryReport> =>
    Promise.all([storing.drained().then(() => sender.sendsSettled()), sender.settled(), late.drained(), before]).then(() => publisher.report());
  return { store, storing, sender, late, publisher, close, flush, sweepIdle, cutoff };
}
