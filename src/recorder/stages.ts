import type { NebulyError } from '../core/errors.js';
import type { Mask } from '../core/privacy-options.js';
import type { ResolvedRecorderOptions } from '../core/recorder-options.js';
import type { ConversationStore } from '../types/store.js';
import { closeAll } from './closing.js';
import { FeedbackSender } from './feedback.js';
import { Publisher, type Transport } from './publisher.js';
import { Sender } from './sending.js';
import { MemoryStore } from './store/memory-store-class.js';
import { Storing } from './storing.js';
import { sweepIdle } from './sweeping.js';
import type { Cutoff } from './timers.js';

/** The recorder's background stages, connected: what an ended turn and conversation go through. */
export interface Stages {
  store: ConversationStore;
  /** Checks, masks and stores each ended interaction. */
  storing: Storing;
  /** Claims each ended conversation, fits it, and hands it to the publisher. */
  sender: Sender;
  /** Feedback that arrives after its interaction was stored or sent. */
  feedback: FeedbackSender;
  /** Sends bodies: the queue, its bound, retries, the shutdown deadline. */
  publisher: Publisher;
  /** What `shutdown()` runs once it has closed the open conversations to recording (`closing.ts`). */
  closeAll: typeof closeAll;
  /** What `sweep()` runs: idle conversations of a shared store claimed in batches (`sweeping.ts`). */
  sweepIdle: typeof sweepIdle;
}

/** What {@link connectStages} needs. */
export interface StagesInit {
  options: ResolvedRecorderOptions;
  transport: Transport;
  report: (error: NebulyError) => void;
  mask: Mask | undefined;
  /** Passes at shutdown's deadline: no stage waits for the store after it. */
  cutoff: Cutoff;
  /** Called whenever a send settles or the queue drains: what is at risk at exit changed. */
  changed: () => void;
}

/**
 * Makes the recorder's stages and connects them: storing → sender → publisher, and
 * feedback beside them, all on one store (`recorder.store`, the memory store by default).
 *
 * @example
 * ```ts
 * const { storing, sender } = connectStages({ options, transport, report, mask: undefined, cutoff: new Cutoff(), changed: () => undefined });
 * ```
 */
export function connectStages({ options, transport, report, mask, cutoff, changed }: StagesInit): Stages {
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
    options.delivery === 'interaction' ? (conversation, stored) => sender.sendInteraction(conversation, stored) : undefined;
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
  const feedback = new FeedbackSender({
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
  });
  return { store, storing, sender, feedback, publisher, closeAll, sweepIdle };
}
