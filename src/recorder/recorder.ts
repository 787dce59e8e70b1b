import { NebulyError, ValidationError } from '../core/errors.js';
import { Conversation, type ConversationHost, type EndReason } from './conversation.js';
import { cropToFit } from './crop.js';
import { RecordingError } from './errors.js';
import { fieldsOf } from './fields.js';
import { newConversationId } from './ids.js';
import { type RecorderOptions, type ResolvedRecorderOptions, resolveRecorderOptions } from './options.js';
import type { ConversationOutcome } from './outcome.js';
import { buildConversationPayload } from './payload.js';
import { Publisher, type Transport } from './publisher.js';
import type { ConversationRecord } from './record.js';
import { checkStartParams, type StartConversationParams } from './start.js';

/** Options of `nebuly.shutdown`. */
export interface ShutdownOptions {
  /**
   * How long to wait for the last sends; then the requests still running are aborted and
   * what is left goes to `onError`. `Infinity`: as long as it takes.
   * @default the recorder's `shutdownTimeoutMs` (10 s)
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
  readonly #host: ConversationHost;
  /** Open conversations, to end at shutdown. */
  readonly #open = new Map<Conversation, (reason: EndReason) => Promise<ConversationOutcome>>();
  #shutdown: Promise<void> | undefined;

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
    });
    this.#host = {
      now: this.#options.now,
      idleTimeoutMs: this.#options.idleTimeoutMs,
      report: this.#report,
      submit: (record, notes) => this.#submit(record, notes),
      opened: (conversation, finish) => this.#open.set(conversation, finish),
      closed: (conversation) => this.#open.delete(conversation),
    };
  }

  /**
   * Starts recording a conversation. Never throws: an invalid `end_user`, or a call after
   * `shutdown()`, is reported to `onError` and gives a conversation that records nothing
   * (its `end()` resolves `{ status: 'dropped' }`); invalid tags are left out and reported.
   */
  startConversation(params: StartConversationParams): Conversation {
    if (this.#shutdown !== undefined) {
      const conversationId = newConversationId();
      const refusal = new RecordingError(
        'recorder_shut_down',
        `startConversation() after shutdown(): conversation ${conversationId} is not recorded`,
        conversationId,
      );
      this.#report(refusal);
      return new Conversation(this.#host, { conversationId, refusal });
    }
    const start = checkStartParams(params);
    let error: NebulyError | undefined;
    if (start.issues.length > 0) {
      error = new ValidationError(start.issues, `startConversation params (conversation ${start.conversationId})`);
      this.#report(error);
    }
    if (start.endUser === undefined) {
      return new Conversation(this.#host, {
        conversationId: start.conversationId,
        refusal: error ?? new NebulyError('no end_user'),
      });
    }
    return new Conversation(this.#host, {
      conversationId: start.conversationId,
      endUser: start.endUser,
      tags: start.tags,
    });
  }

  /** Resolves once every conversation ended so far was delivered or given up. */
  flush(): Promise<void> {
    return this.#publisher.flush();
  }

  /**
   * Ends every open conversation, waits for everything to be sent for at most
   * `timeoutMs`, then aborts what is still running and reports what is left to
   * `onError`. Later recordings are reported, not recorded. Idempotent: every call
   * returns the first call's promise. Never rejects.
   */
  shutdown(options?: ShutdownOptions): Promise<void> {
    if (this.#shutdown !== undefined) return this.#shutdown;
    // `null`, a getter that throws, a revoked Proxy: the default applies.
    const { timeoutMs } = fieldsOf(options, ['timeoutMs'] as const);
    const bounded = typeof timeoutMs === 'number' && timeoutMs >= 0 ? timeoutMs : this.#options.shutdownTimeoutMs;
    // Set before ending conversations, so that recording from an `onError` handler
    // during shutdown is refused too.
    let begin!: (closed: Promise<void>) => void;
    this.#shutdown = new Promise<void>((resolve) => {
      begin = resolve;
    });
    for (const finish of Array.from(this.#open.values())) void finish('shutdown');
    begin(this.#publisher.close(bounded));
    return this.#shutdown;
  }

  /**
   * Turns an ended conversation into its request body and publishes it. Never throws.
   *
   * Every error about the conversation (`notes` from ending it, invalid data, cropping)
   * is reported only once the publisher has registered it: the user's `onError` may call
   * `flush()` or `shutdown()`, which must then wait for this conversation too.
   */
  #submit(record: ConversationRecord, notes: readonly NebulyError[]): Promise<ConversationOutcome> {
    const { conversationId } = record;
    const errors = notes.slice();
    try {
      const { body, issues } = buildConversationPayload(record);
      let invalid: ValidationError | undefined;
      if (issues.length > 0) {
        invalid = new ValidationError(
          issues,
          `data recorded in conversation ${conversationId} (an invalid step, feedback action or tag is left out; an invalid input or output leaves out its interaction)`,
        );
        errors.push(invalid);
      }
      if (body === undefined) {
        for (const error of errors) this.#report(error);
        return Promise.resolve({
          status: 'dropped',
          conversationId,
          error: invalid ?? new NebulyError(`Conversation ${conversationId} had nothing valid to send`),
        });
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
      // The publisher reports `errors` once the conversation is registered, before its own.
      return this.#publisher.publish(conversationId, fitted.json, fitted.bytes, errors);
    } catch (cause) {
      // A bug, or a value JSON cannot hold (a BigInt, a cycle in a content part): report it
      // rather than break the caller's `end()`.
      const error = new NebulyError(
        `Conversation ${conversationId} could not be serialized: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
      errors.push(error);
      for (const reported of errors) this.#report(reported);
      return Promise.resolve({ status: 'dropped', conversationId, error });
    }
  }
}
