import type { ModelPrice } from '../core/model-price.js';
import type { NebulyError } from '../core/errors.js';
import type { FeedbackTokenMinter } from '../core/feedback-options.js';
import { type RecorderOptions, type ResolvedRecorderOptions, resolveRecorderOptions } from '../core/recorder-options.js';
import type { Mask } from '../core/privacy-options.js';
import {
  Conversation,
  type ConversationContext,
  type ConversationHooks,
  type ConversationInit,
  conversationControl,
  type EndReason,
} from './conversation.js';
import { type DeliveryReport, Tally } from './delivery-report.js';
import { type BeginCall, conversationInit } from './beginning.js';
import type { ShutdownOptions } from './sending.js';
import { type AtRisk, ExitGuard } from './exit-guard.js';
import { type CheckedAttachment, checkFeedback, checkTagParams, type FeedbackParams, type TagParams } from './late-params.js';
import { fieldsOf } from './fields.js';
import { sharedKey } from './keys.js';
import { LazyStages } from './lazy-stages.js';
import { backlogRoom, OpenConversations } from './open-conversations.js';
import type { ConversationOutcome } from './outcome.js';
import type { Transport } from './outbox.js';
import { safeReporter } from './safe-reporter.js';
import type { StartConversationParams } from './start.js';
import { Deadline, isPeriod, startInterval } from './timers.js';

export type { ShutdownOptions };

/** What a {@link Recorder} is built from. */
export interface RecorderInit {
  /** How conversations reach the service: the client's HTTP core. */
  http: Transport;
  /** Receives every error of background work; may throw or reject without harm. */
  onError: (error: NebulyError) => void;
  options?: RecorderOptions | undefined;
  /** The client's `mask`, applied to every interaction before it is stored or sent. */
  mask?: Mask | undefined;
  /** Whether an end user is in the sample (`sampleRate`); all are when left out. */
  sampled?: ((endUser: string) => boolean) | undefined;
  /** How `turn.feedbackToken()` asks the client for a token. */
  feedbackToken?: FeedbackTokenMinter | undefined;
  /** The client's `modelPrices`, handed to its conversations for the integrations. */
  modelPrices?: Readonly<Record<string, ModelPrice>> | undefined;
}

/**
 * The conversation recorder behind `nebuly.conversation`, `nebuly.startConversation`,
 * `nebuly.flush`, `nebuly.sweep` and `nebuly.shutdown`. Recording is synchronous; what
 * follows runs in the background, in slices: each ended interaction is checked and put
 * in the store (`Storing`), each ended conversation is claimed, fitted and sent
 * (`Sender`, `Outbox`). One timer ends the conversations of this process that go idle;
 * with a shared store, another sweeps the store for those idle anywhere.
 *
 * @example
 * ```ts
 * const nebuly = new NebulyClient({ recorder: { idleTimeoutMs: 60_000 } });
 * const conversation = nebuly.conversation({ conversation_id: 'chat-1', end_user: 'user-hash' });
 * // … record interactions …
 * await nebuly.shutdown({ timeoutMs: 5_000 });
 * ```
 */
export class Recorder {
  readonly #options: ResolvedRecorderOptions;
  readonly #report: (error: NebulyError) => void;
  /** Storing, sending, the outbox and late feedback: loaded when first needed. */
  readonly #stages: LazyStages;
  /** Whether the store is shared with other instances (a memory store, the default, is not). */
  readonly #shared: boolean;
  readonly #open: OpenConversations<Conversation>;
  /** What every conversation of this recorder shares; its gate closes at shutdown. */
  readonly #context: ConversationContext;
  readonly #hooks: ConversationHooks<Conversation>;
  readonly #sampled: (endUser: string) => boolean;
  /** Stops the sweeps of a shared store every `sweepIntervalMs`. */
  readonly #stopSweeping: () => void;
  #lastFlush: Promise<unknown> = Promise.resolve();
  #shutdown: Promise<DeliveryReport> | undefined;
  readonly #exitGuard: ExitGuard;
  /** What waits for room in the backlog (`closeAll`; the idle timer is told apart): woken by {@link Recorder.#changed}. */
  #roomWaiters: (() => void)[] = [];

  /** @throws TypeError when a recorder option is out of range. */
  constructor(init: RecorderInit) {
    const options = resolveRecorderOptions(init.options);
    this.#options = options;
    this.#report = safeReporter(init.onError);
    this.#stages = new LazyStages({
      options,
      transport: init.http,
      report: this.#report,
      mask: init.mask,
      changed: () => this.#changed(),
    });
    this.#context = { now: options.now, report: this.#report, gate: { closed: false }, feedbackToken: init.feedbackToken, modelPrices: init.modelPrices };
    this.#shared = options.store?.shared ?? false;
    this.#sampled = init.sampled ?? (() => true);
    this.#open = new OpenConversations<Conversation>({
      idleTimeoutMs: options.idleTimeoutMs,
      now: options.now,
      onIdle: (conversation) => this.#letGo(conversation, 'idle'),
      room: () => this.#room(),
    });
    this.#hooks = {
      turnEnded: (conversation, record) => this.#stages.run(({ storing }) => storing.take(conversation, record), true, conversation.key),
      stepSettled: (conversation, record) => this.#stages.run(({ storing }) => storing.settled(record), false, conversation.key),
      lateFeedback: (conversation, record, action) => {
        const checked = checkFeedback({ ...action, conversation_id: conversation.id, interaction_id: record.id }, this.#report);
        if (checked !== undefined) void this.#sendLate(conversation.key, checked);
      },
      ended: (conversation, reason, errors) => this.#ended(conversation, reason, errors),
    };
    this.#exitGuard = new ExitGuard({
      counts: () => this.#atRisk(),
      openTurns: () => {
        let count = 0;
        for (const conversation of this.#open.values()) count += conversationControl(conversation).openTurns();
        return count;
      },
      holds: this.#shared ? 'shared' : options.delivery === 'interaction' ? 'interactions' : 'conversations',
      beforeExit: () => this.#beforeExit(),
      report: this.#report,
    });
    this.#stopSweeping = this.#shared ? startInterval(() => this.sweep(), options.sweepIntervalMs) : () => undefined;
  }

  /**
   * How many more conversations may be let go of now, idle or at shutdown (see
   * `backlogRoom`): with the memory store, letting go of one sends it; with a shared
   * store, it only leaves it to the store's sweeps.
   */
  #room(): number {
    return this.#shared ? Number.POSITIVE_INFINITY : backlogRoom(this.#unsent(), this.#options.maxConcurrentSends);
  }

  /** Calls `wake` once the backlog has room (at once if it has): each send settling makes some. */
  #onRoom(wake: () => void): void {
    if (this.#room() > 0) wake();
    else this.#roomWaiters.push(wake);
  }

  /** A send settled, or the outbox's queue drained: what is at risk at exit, and the room in the backlog, changed. */
  #changed(): void {
    this.#exitGuard.update();
    if (this.#room() <= 0) return;
    this.#open.roomFreed();
    if (this.#roomWaiters.length === 0) return;
    const waiters = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Conversations ended and not settled; before the stages load, those waiting for them. */
  #unsent(): number {
    const ready = this.#stages.ready;
    if (ready === undefined) return this.#stages.sendsWaiting;
    return Math.max(ready.outbox.pendingCount, ready.sender.runningCount);
  }

  /**
   * What a process exit would lose now: the open conversations, the ended ones not yet
   * delivered or reported (not those delivered and being marked so in the store), and
   * the ended interactions not yet stored.
   */
  #atRisk(): AtRisk {
    const ready = this.#stages.ready;
    if (ready === undefined) return { open: this.#open.size, unsent: this.#stages.sendsWaiting, unstored: this.#stages.storesWaiting };
    const { sender, outbox, storing } = ready;
    // With `delivery: 'interaction'` the outbox holds interactions, and an end sends nothing.
    const unsent = outbox.pendingCount + (this.#options.delivery === 'interaction' ? 0 : sender.unpublishedCount);
    return { open: this.#open.size, unsent, unstored: storing.pendingCount };
  }

  /**
   * Resumes the open conversation `conversation_id` (in this process, or, with a shared
   * store, anywhere), else starts it. Never throws; see {@link Recorder.startConversation}.
   */
  conversation(params: StartConversationParams): Conversation {
    const { conversation_id: id } = fieldsOf(params, ['conversation_id'] as const);
    if (typeof id === 'string' && id.trim() !== '') {
      const open = this.#open.get(sharedKey(id));
      if (open !== undefined && !open.ended) return open;
    }
    return this.#begin(params, 'conversation');
  }

  /**
   * Starts recording a new conversation. Never throws: an invalid `end_user`, or a call
   * after `shutdown()`, is reported to `onError` and gives a conversation that records
   * nothing (its `end()` resolves `{ status: 'dropped' }`); invalid tags are left out and
   * reported.
   */
  startConversation(params: StartConversationParams): Conversation {
    return this.#begin(params, 'startConversation');
  }

  #begin(params: StartConversationParams, call: BeginCall): Conversation {
    return this.#create(conversationInit(params, call, { shutDown: this.#shutdown !== undefined, sampled: this.#sampled, report: this.#report }));
  }

  /**
   * Creates a conversation and keeps it among the open ones until it ends, first letting
   * go of the idlest one if this one would pass `maxOpenConversations`: with the memory
   * store, that one is sent early, never dropped, so memory stays bounded even when
   * conversations are never ended.
   */
  #create(init: ConversationInit): Conversation {
    const conversation = new Conversation(this.#context, init, this.#hooks);
    if ('sampledOut' in init) return conversation;
    if ('refusal' in init) {
      // Dropped from its start, its error already reported: counted, never sent.
      this.#stages.run(({ outbox }) => void outbox.drop(init.conversationId, init.refusal, []));
      return conversation;
    }
    if (this.#open.size >= this.#options.maxOpenConversations) {
      const idlest = this.#open.idlest();
      // One idle past its time-out, waiting for room to be sent, is ended as idle.
      if (idlest !== undefined) this.#letGo(idlest, this.#open.isIdle(idlest) ? 'idle' : 'evicted');
    }
    this.#open.add(conversation);
    this.#exitGuard.update();
    return conversation;
  }

  /**
   * This process stops holding `conversation` (idle, evicted, at shutdown or exit). With
   * the memory store nobody else can end it: it is sent now. With a shared store another
   * instance may go on with it: its open turns are ended and stored, and the store's
   * sweep sends it once it is idle everywhere.
   */
  #letGo(conversation: Conversation, reason: EndReason): void {
    this.#open.delete(conversation);
    const control = conversationControl(conversation);
    if (this.#shared && reason !== 'end') {
      if (reason !== 'evicted') control.closeTurns(reason);
      this.#stages.run(({ storing }) => storing.release(conversation), false, conversation.key);
    } else {
      void control.finish(reason);
    }
    this.#exitGuard.update();
  }

  /** A conversation ended: it is no longer open; what the store holds of it is sent. */
  #ended(conversation: Conversation, reason: EndReason, errors: NebulyError[]): Promise<ConversationOutcome> {
    this.#open.delete(conversation);
    const outcome = this.#stages.use(
      ({ storing, sender }) => {
        storing.release(conversation);
        return sender.end(conversation, reason, errors);
      },
      (error): ConversationOutcome => ({ status: 'failed', conversationId: conversation.id, error }),
      true,
      conversation.key,
    );
    this.#exitGuard.update();
    return outcome;
  }

  /**
   * Records feedback on an interaction of the conversation `conversation_id`, from any
   * instance: on its turn if it is still open here, on the stored interaction while the
   * conversation is open, else, once it was sent, through the feedback endpoint. Never
   * rejects; what cannot be recorded is reported.
   */
  feedback(params: FeedbackParams): Promise<void> {
    return this.#attach(checkFeedback(params, this.#report));
  }

  /**
   * Adds tags to an interaction of the conversation `conversation_id`, from any instance,
   * as {@link Recorder.feedback} records feedback: on its turn if it is still open here, on
   * the stored interaction while the conversation is open, else, once it was sent, through
   * the tags endpoint. Never rejects; what cannot be recorded is reported.
   */
  tag(params: TagParams): Promise<void> {
    return this.#attach(checkTagParams(params, this.#report));
  }

  /** Checked feedback or tags: on the open turn here, else to the store or the service. */
  #attach(checked: CheckedAttachment | undefined): Promise<void> {
    if (checked === undefined) return Promise.resolve();
    const key = sharedKey(checked.conversationId);
    const open = this.#open.get(key);
    if (open !== undefined && conversationControl(open).attachToOpenTurn(checked.interactionId, checked.attachment)) return Promise.resolve();
    return this.#sendLate(key, checked);
  }

  /** Feedback or tags for an interaction no open turn here holds: attached in the store, or sent. */
  #sendLate(key: string, { conversationId, interactionId, attachment }: CheckedAttachment): Promise<void> {
    return this.#stages.use(
      ({ late }) => late.send(key, conversationId, interactionId, attachment),
      () => undefined,
      false,
      key,
    );
  }

  /**
   * Resolves once every interaction ended before the call is in the store and every
   * conversation ended before the call was delivered or given up, with the report of the
   * conversations settled since the previous report (each counted once).
   */
  flush(): Promise<DeliveryReport> {
    // What was ended before the call, not what ends while it waits: a flush under load
    // still resolves. Flushes resolve in the order they were called.
    const last = this.#lastFlush;
    const flushed = this.#stages.use(
      ({ flush }) => flush(last),
      () => new Tally().report(),
    );
    this.#lastFlush = flushed;
    return flushed;
  }

  /**
   * Ends and sends the conversations of the store idle past `idleTimeoutMs`, from any
   * instance, and those a sender left unsent (its lease expired); resolves with the
   * report of what it sent. Never rejects.
   */
  sweep(): Promise<DeliveryReport> {
    const { now, idleTimeoutMs } = this.#options;
    if (!isPeriod(idleTimeoutMs)) return this.flush();
    const idleBefore = now() - idleTimeoutMs;
    const swept = this.#stages.use(
      ({ sender }) => sender.sweepIdle(idleBefore),
      () => undefined,
    );
    return swept.then(() => this.flush());
  }

  /**
   * Ends every open conversation (with a shared store: stores their open turns, and
   * leaves them there for other instances), waits for everything to be sent for at most
   * `timeoutMs`, then aborts what is still running and reports what is left to
   * `onError`. Later recordings are reported, not recorded. Idempotent: every call
   * returns the first call's promise. Never rejects. Resolves with the report of the
   * conversations it waited for, those it ended itself included.
   */
  shutdown(options?: ShutdownOptions): Promise<DeliveryReport> {
    if (this.#shutdown !== undefined) return this.#shutdown;
    // What settles from now on is what the report counts.
    this.#stages.ready?.outbox.beginFinal();
    // An unknown name, a value out of range, `null`, a revoked Proxy: the default applies
    // (shutdown never throws), and the stages report what was wrong (`Stages.close`).
    const { timeoutMs } = fieldsOf(options, ['timeoutMs'] as const);
    const bounded = typeof timeoutMs === 'number' && timeoutMs >= 0 ? timeoutMs : this.#options.shutdownTimeoutMs;
    // Set before ending conversations, so that recording from an `onError` handler
    // during shutdown is refused too.
    let begin!: (closed: Promise<DeliveryReport>) => void;
    this.#shutdown = new Promise<DeliveryReport>((resolve) => {
      begin = resolve;
    });
    begin(this.#closeAll(bounded, 'shutdown', options));
    return this.#shutdown;
  }

  /**
   * Lets go of what is open and closes the outbox, within `timeoutMs` from now;
   * `shutdown()` resolves with this. The open conversations are closed to recording at
   * once; the rest runs with the stages (`closeAll` in `sending.ts`), loaded first if they were not.
   */
  async #closeAll(timeoutMs: number, reason: 'shutdown' | 'exit', options?: unknown): Promise<DeliveryReport> {
    // Set now, and holding the process until it passes, whenever the stages are ready.
    const deadline = new Deadline(timeoutMs);
    this.#open.stop();
    this.#stopSweeping();
    // Closed at once, all of them: what is recorded on them from now on is reported, not
    // recorded. None is opened after (see `conversationInit`); they are let go of, idlest
    // first, as the backlog has room.
    this.#context.gate.closed = true;
    const next = () => this.#open.idlest();
    const letGo = (conversation: Conversation) => this.#letGo(conversation, reason);
    const delivery = await this.#stages.use(
      ({ close }) => close({ next, letGo, room: () => this.#room(), onRoom: (wake) => this.#onRoom(wake) }, deadline, options),
      () => {
        // Nothing can be sent: each still ends, its outcome `failed`.
        for (let conversation = next(); conversation !== undefined; conversation = next()) letGo(conversation);
        deadline.clear();
        return new Tally().report();
      },
    );
    this.#exitGuard.update();
    return delivery;
  }

  /**
   * The event loop emptied with conversations open: the program is done with them. Send
   * them as `shutdown()` would, within `shutdownTimeoutMs` (the sends keep the process
   * alive until then; Node emits `beforeExit` again once they are done). Off with
   * `sendOnExit: false`.
   */
  #beforeExit(): void {
    if (!this.#options.sendOnExit || this.#shutdown !== undefined || this.#open.size === 0) return;
    this.#shutdown = this.#closeAll(this.#options.shutdownTimeoutMs, 'exit');
  }
}
