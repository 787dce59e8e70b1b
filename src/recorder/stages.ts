import type { NebulyError } from '../core/errors.js';
import type { Mask } from '../core/privacy-options.js';
import type { ResolvedRecorderOptions } from '../core/recorder-options.js';
import type { ConversationStore } from '../types/store.js';
import { type ClosingParts, closeAll, type LettingGo } from './closing.js';
import type { DeliveryReport } from './delivery-report.js';
import type { Deadline } from './timers.js';
import { FeedbackSender } from './feedback.js';
import { Outbox, type Transport } from './outbox.js';
import { Sender } from './sending.js';
import { MemoryStore } from './store/memory-store-class.js';
import { Storing } from './storing.js';
import { Cutoff } from './cutoff.js';

/** The recorder's background stages, connected: what an ended turn and conversation go through. */
export interface Stages {
  store: ConversationStore;
  /** Checks, masks and stores each ended interaction. */
  storing: Storing;
  /** Claims each ended conversation, fits it, and hands it to the outbox. */
  sender: Sender;
  /** Feedback that arrives after its interaction was stored or sent. */
  feedback: FeedbackSender;
  /** Sends bodies: the queue, its bound, retries, the shutdown deadline. */
  outbox: Outbox;
  /**
   * What `shutdown()` runs once it has closed the open conversations to recording: lets
   * go of them and closes the stages by the deadline (`closing.ts`); resolves with the report.
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
 * Makes the recorder's stages and connects them: storing → sender → outbox, and
 * feedback beside them, all on one store (`recorder.store`, the memory store by default).
 *
 * @example
 * ```ts
 * const { storing, sender } = connectStages({ options, transport, report, mask: undefined, changed: () => undefined });
 * ```
 */
export function connectStages({ options, transport, report, mask, changed }: StagesInit): Stages {
  const cutoff = new Cutoff();
  const store = options.store ?? new MemoryStore();
  const outbox = new Outbox({
    transport,
    report,
    maxConcurrentSends: options.maxConcurrentSends,
    maxQueuedConversations: options.maxQueuedConversations,
    maxQueuedBytes: options.maxQueuedBytes,
    drained: changed,
  });
  // With `delivery: 'interaction'`, storing an interaction sends it.
  const deliver: ConstructorParameters<typeof Storing>[0]['deliver'] =
    options.delivery === 'interaction' ? (conversation, stored) => sender.sendInteraction(conversation, stored) : undefined;
  const storing = new Storing({ store, now: options.now, report, deliver, mask, cutoff });
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
  const feedback = new FeedbackSender({
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
  });
  const close = <C>(parts: LettingGo<C>, deadline: Deadline): Promise<DeliveryReport> => {
    outbox.beginFinal();
    const closing: ClosingParts<C> = {
      ...parts,
      handedOver: () => Promise.all([storing.drained(), sender.published(), feedback.drained()]),
      expire: (reason) => {
        cutoff.pass(reason);
        outbox.abandon(reason);
      },
      published: () => outbox.flush(),
      settled: () => Promise.all([storing.drained(), sender.settled(), sender.sendsSettled(), feedback.drained()]),
      report: () => outbox.finalReport(),
    };
    return closeAll(closing, deadline);
  };
  // With `delivery: 'interaction'`, storing an interaction is sending it: what the stored
  // ones started is waited for too.
  const flush = (before: Promise<unknown>): Promise<DeliveryReport> =>
    Promise.all([storing.drained().then(() => sender.sendsSettled()), sender.settled(), feedback.drained(), before]).then(() => outbox.report());
  return { store, storing, sender, feedback, outbox, close, flush, cutoff };
}
