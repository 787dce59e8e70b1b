import { NebulyError, ValidationError } from '../core/errors.js';
import {
  Conversation,
  type ConversationContext,
  type ConversationControl,
  type ConversationInit,
  conversationControl,
  type EndedConversation,
} from './conversation.js';
import { cropToFit } from './crop.js';
import type { DeliveryReport } from './delivery-report.js';
import { RecordingError } from './errors.js';
import { type ExitWatcher, unwatchExit, watchExit } from './exit-hook.js';
import { fieldsOf } from './fields.js';
import { newId } from './ids.js';
import { OpenConversations } from './open-conversations.js';
import { type RecorderOptions, type ResolvedRecorderOptions, resolveRecorderOptions } from '../core/recorder-options.js';
import type { ConversationOutcome } from './outcome.js';
import type { ConversationRecord } from './record.js';
import { buildConversationPayload } from './payload.js';
import { Publisher, type Transport } from './publisher.js';
import { checkStartParams, type StartConversationParams } from './start.js';

/** Options of `nebuly.shutdown`. */
export interface ShutdownOptions {
  /**
   * How long to wait for the last sends; then the requests still running are aborted and
   * what is left goes to `onError`. `Infinity`: as long as it takes.
   * @default the recorder's `shutdownTimeoutMs` (20 s)
   */
  timeoutMs?: number | undefined;
}

/** What a {@link Recorder} is built from. */
export interface RecorderInit {
  /** How conversations reach the service: the client's HTTP core. */
  http: Transport;
  /** Receives every error of background work; may throw or reject without harm. */
  onError: (error: NebulyError) => void;
  options?: RecorderOptions | undefined;
}

/**
 * Wraps the user's `onError` so that it can never break the recorder: a handler that
 * throws, or returns a rejected promise, is the user's bug, and there is nowhere left to
 * report it.
 */
function safeReporter(onError: (error: NebulyError) => void): (error: NebulyError) => void {
  return (error) => {
    try {
      const returned: unknown = onError(error);
      if (returned instanceof Promise) returned.catch(() => undefined);
    } catch {
      // See above.
    }
  };
}

/**
 * The conversation recorder behind `nebuly.startConversation`, `nebuly.flush` and
 * `nebuly.shutdown`: it starts conversations, ends idle ones, validates, crops and
 * serializes ended ones, and hands them to the publisher.
 *
 * @example
 * ```ts
 * const nebuly = new NebulyClient({ recorder: { idleTimeoutMs: 60_000 } });
 * const conversation = nebuly.startConversation({ end_user: 'user-hash' });
 * // … record interactions …
 * await nebuly.shutdown({ timeoutMs: 5_000 });
 * ```
 */
export class Recorder {
  readonly #options: ResolvedRecorderOptions;
  readonly #report: (error: NebulyError) => void;
  readonly #publisher: Publisher;
  readonly #context: ConversationContext;
  /** Open conversations: to end at shutdown, and the idlest to end past `maxOpenConversations`. */
  readonly #open = new OpenConversations<Conversation, ConversationControl>();
  #shutdown: Promise<DeliveryReport> | undefined;
  /** Registered with the process's exit events while something would be lost at exit. */
  readonly #exitWatcher: ExitWatcher = {
    beforeExit: () => this.#beforeExit(),
    exit: () => this.#exit(),
  };
  #watchingExit = false;

  /** @throws TypeError when a recorder option is out of range. */
  constructor(init: RecorderInit) {
    this.#options = resolveRecorderOptions(init.options);
    this.#report = safeReporter(init.onError);
    this.#publisher = new Publisher({
      transport: init.http,
      report: this.#report,
      maxConcurrentSends: this.#options.maxConcurrentSends,
      maxQueuedConversations: this.#options.maxQueuedConversations,
      maxQueuedBytes: this.#options.maxQueuedBytes,
      drained: () => this.#updateExitWatch(),
    });
    this.#context = { now: this.#options.now, idleTimeoutMs: this.#options.idleTimeoutMs, report: this.#report };
  }

  /**
   * Starts recording a conversation. Never throws: an invalid `end_user`, or a call after
   * `shutdown()`, is reported to `onError` and gives a conversation that records nothing
   * (its `end()` resolves `{ status: 'dropped' }`); invalid tags are left out and reported.
   */
  startConversation(params: StartConversationParams): Conversation {
    if (this.#shutdown !== undefined) {
      const conversationId = newId();
      const refusal = new RecordingError(
        'recorder_shut_down',
        `startConversation() after shutdown(): conversation ${conversationId} is not recorded`,
        conversationId,
      );
      this.#report(refusal);
      return this.#start({ conversationId, refusal });
    }
    const start = checkStartParams(params);
    let error: NebulyError | undefined;
    if (start.issues.length > 0) {
      error = new ValidationError(start.issues, `startConversation params (conversation ${start.conversationId})`);
      this.#report(error);
    }
    if (start.endUser === undefined) {
      return this.#start({ conversationId: start.conversationId, refusal: error ?? new NebulyError('no end_user') });
    }
    return this.#start({ conversationId: start.conversationId, endUser: start.endUser, tags: start.tags });
  }

  /**
   * Creates a conversation and keeps it among the open ones until it ends, first ending
   * the idlest one if this one would pass `maxOpenConversations`: that one is sent
   * early, never dropped, so memory stays bounded even when conversations are never ended.
   */
  #start(init: ConversationInit): Conversation {
    const conversation: Conversation = new Conversation(this.#context, init, (ended) =>
      this.#ended(conversation, ended),
    );
    if ('refusal' in init) {
      // Dropped from its start, its error already reported: counted, never sent.
      void this.#publisher.drop(init.conversationId, init.refusal, []);
      return conversation;
    }
    if (this.#open.size >= this.#options.maxOpenConversations) {
      // Its end takes it out of `#open`.
      void this.#open.idlest()?.finish('evicted');
    }
    this.#open.add(conversation, conversationControl(conversation));
    this.#updateExitWatch();
    return conversation;
  }

  /** A conversation ended: it is no longer open, and goes to the publisher if it has anything to send. */
  #ended(conversation: Conversation, { record, errors }: EndedConversation): Promise<ConversationOutcome> {
    this.#open.delete(conversation);
    const outcome: Promise<ConversationOutcome> =
      record.interactions.length === 0
        ? Promise.resolve({ status: 'empty', conversationId: record.conversationId })
        : this.#publish(record, errors);
    this.#updateExitWatch();
    return outcome;
  }

  /**
   * Resolves once every conversation ended so far was delivered or given up, with the
   * report of those ended since the previous report.
   */
  flush(): Promise<DeliveryReport> {
    return this.#publisher.flush();
  }

  /**
   * Ends every open conversation, waits for everything to be sent for at most
   * `timeoutMs`, then aborts what is still running and reports what is left to
   * `onError`. Later recordings are reported, not recorded. Idempotent: every call
   * returns the first call's promise. Never rejects. Resolves with the report of the
   * conversations it waited for, those it ended itself included.
   */
  shutdown(options?: ShutdownOptions): Promise<DeliveryReport> {
    if (this.#shutdown !== undefined) return this.#shutdown;
    // `null`, a getter that throws, a revoked Proxy: the default applies.
    const { timeoutMs } = fieldsOf(options, ['timeoutMs'] as const);
    const bounded = typeof timeoutMs === 'number' && timeoutMs >= 0 ? timeoutMs : this.#options.shutdownTimeoutMs;
    // Set before ending conversations, so that recording from an `onError` handler
    // during shutdown is refused too.
    let begin!: (closed: Promise<DeliveryReport>) => void;
    this.#shutdown = new Promise<DeliveryReport>((resolve) => {
      begin = resolve;
    });
    begin(this.#closeAll(bounded, 'shutdown'));
    return this.#shutdown;
  }

  /** Ends what is open and closes the publisher; `shutdown()` resolves with this. */
  async #closeAll(timeoutMs: number, reason: 'shutdown' | 'exit'): Promise<DeliveryReport> {
    for (const open of this.#open.handles()) void open.finish(reason);
    const report = await this.#publisher.close(timeoutMs);
    this.#updateExitWatch();
    return report;
  }

  /**
   * Watches the process's exit while a conversation is open or unsent, and only then:
   * an idle client adds no listener, and one dropped without `shutdown()` is not held.
   */
  #updateExitWatch(): void {
    const atRisk = this.#open.size > 0 || this.#publisher.pendingCount > 0;
    if (atRisk === this.#watchingExit) return;
    this.#watchingExit = atRisk;
    if (atRisk) watchExit(this.#exitWatcher);
    else unwatchExit(this.#exitWatcher);
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

  /**
   * The process is exiting now (`process.exit()`, or the loop emptied with `sendOnExit`
   * off): nothing more can be sent. Say once how much is lost, so that it is not silent.
   */
  #exit(): void {
    const open = this.#open.size;
    const unsent = this.#publisher.pendingCount;
    this.#watchingExit = false;
    unwatchExit(this.#exitWatcher);
    if (open + unsent === 0) return;
    this.#report(
      new RecordingError(
        'unsent_at_exit',
        `The process exited with ${open + unsent} conversation(s) not sent (${open} open, ${unsent} ended and unsent): ` +
          'await nebuly.shutdown() before the process exits (before process.exit(), in SIGINT / SIGTERM handlers)',
      ),
    );
  }

  /**
   * Turns an ended conversation into its request body and hands it to the publisher,
   * with every error found about it, for the publisher to report. Never throws.
   */
  #publish(record: ConversationRecord, found: readonly NebulyError[]): Promise<ConversationOutcome> {
    const { conversationId } = record;
    const errors = found.slice();
    try {
      const { body, issues, notes: payloadNotes } = buildConversationPayload(record);
      errors.push(...payloadNotes);
      let invalid: ValidationError | undefined;
      if (issues.length > 0) {
        invalid = new ValidationError(
          issues,
          `data recorded in conversation ${conversationId} (an invalid step, feedback action or tag is left out; an invalid input or output leaves out its interaction)`,
        );
        errors.push(invalid);
      }
      if (body === undefined) {
        const reason = invalid ?? new NebulyError(`Conversation ${conversationId} had nothing valid to send`);
        return this.#publisher.drop(conversationId, reason, errors);
      }
      const max = this.#options.maxConversationBytes;
      const fitted = cropToFit(body, max);
      if (fitted.croppedStrings > 0 || !fitted.fits) {
        errors.push(
          new RecordingError(
            'conversation_cropped',
            `Conversation ${conversationId} was over maxConversationBytes (${max}) as JSON: ` +
              `${fitted.croppedStrings} of its longest strings were cropped, to ${fitted.bytes} bytes` +
              (fitted.fits ? '' : '; still too large, sent anyway'),
            conversationId,
          ),
        );
      }
      return this.#publisher.publish(conversationId, fitted.json, fitted.bytes, errors);
    } catch (cause) {
      // A bug, or a value JSON cannot hold (a BigInt, a cycle in a content part): report it
      // rather than break the caller's `end()`.
      const error = new NebulyError(
        `Conversation ${conversationId} could not be serialized: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
      errors.push(error);
      return this.#publisher.drop(conversationId, error, errors);
    }
  }
}
