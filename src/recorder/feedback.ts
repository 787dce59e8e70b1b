import { NebulyError } from '../core/errors.js';
import { ENDPOINT_PATHS } from '../core/endpoint-paths.js';
import type { Mask } from '../core/privacy-options.js';
import type { ConversationFeedbackAction, SendFeedbackBody } from '../schemas/index.js';
import type { ConversationStore, SentInteraction } from '../types/store.js';
import { messageOf, RecordingError } from './errors.js';
import { storeLost } from './store-lost.js';
import { newId } from './ids.js';
import { CUT, type Cutoff } from './outbox.js';
import { Progress } from './bounded-jobs.js';
import { startTimer } from './timers.js';
import type { Outbox } from './outbox.js';

/** What {@link FeedbackSender} needs. */
export interface FeedbackSenderOptions {
  store: ConversationStore;
  outbox: Outbox;
  report: (error: NebulyError) => void;
  now: () => number;
  mask: Mask | undefined;
  /** Passes at shutdown's deadline: feedback not recorded by then is reported, no store call awaited. */
  cutoff: Cutoff;
  /** With a shared store: how long feedback waits for its interaction, which another instance may still be storing (`settleMs`). */
  settleMs?: number | undefined;
  /** Resolves once the interactions of the conversation `key` taken so far are in the store; `undefined`: they are. */
  stored: (key: string) => Promise<void> | undefined;
  /** Resolves once the conversations being sent by this process are sent: one may hold the interaction. */
  sending: () => Promise<void>;
  /** With `delivery: 'interaction'`: what this process sent of the interaction, kept for late feedback. */
  sentHere: (key: string, interactionId: string) => SentInteraction | undefined;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/** How many times, spread over `settleMs`, feedback looks again for an interaction not in the store yet. */
const SETTLE_RETRIES = 4;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => startTimer(resolve, ms, { keepAlive: true }));
}

/**
 * Feedback that arrives after its interaction ended, from any instance: attached to the
 * stored interaction while its conversation is open; once it was sent, posted to the
 * feedback endpoint with what the store kept of the interaction (input, output, end user)
 * and a timestamp after its end, which is how the service links it. Never throws; what
 * cannot be done is reported.
 *
 * @example
 * ```ts
 * await feedbackSender.send(sharedKey(chatId), 'chat-1', turnId, { slug: 'thumbs_up' });
 * ```
 */
export class FeedbackSender {
  readonly #options: FeedbackSenderOptions;
  /** Feedback on its way, for a flush to wait for. */
  readonly #pending = new Progress();

  constructor(options: FeedbackSenderOptions) {
    this.#options = options;
  }

  /** Resolves once every feedback taken before the call was attached, sent, or reported. */
  drained(): Promise<void> {
    return this.#pending.whenDone();
  }

  /** Attaches or sends `action` for the interaction; never rejects. */
  send(key: string, conversationId: string, interactionId: string, action: ConversationFeedbackAction): Promise<void> {
    const { cutoff, report } = this.#options;
    const job = cutoff.race(this.#send(key, conversationId, interactionId, action)).then(
      (done) => {
        if (done === CUT) report(new NebulyError(`Feedback on interaction ${interactionId} was not recorded: ${messageOf(cutoff.reason)}`));
      },
      (cause: unknown) => {
        report(storeLost(cause, conversationId) ?? new NebulyError(`Feedback on interaction ${interactionId} could not be recorded: ${messageOf(cause)}`, { cause }));
      },
    );
    const number = this.#pending.begin();
    void job.finally(() => this.#pending.finish(number));
    return job;
  }

  async #send(key: string, conversationId: string, interactionId: string, action: ConversationFeedbackAction): Promise<void> {
    const { store, now, stored, sending } = this.#options;
    await stored(key);
    if (await store.addFeedback(key, interactionId, action, now())) return;
    let sent = (await store.sent(key, interactionId, now())) ?? this.#options.sentHere(key, interactionId);
    if (sent === undefined) {
      // Its conversation may be on its way from this process: it is then kept once sent.
      await sending();
      if (await store.addFeedback(key, interactionId, action, now())) return;
      sent = await store.sent(key, interactionId, now());
    }
    // Another instance may have ended it just now and still be storing it: retried a
    // few times within `settleMs`.
    const settleMs = this.#options.settleMs ?? 0;
    for (let retry = 1; sent === undefined && retry <= SETTLE_RETRIES && settleMs > 0 && !this.#options.cutoff.passed; retry += 1) {
      await this.#options.cutoff.race(delay(settleMs / SETTLE_RETRIES));
      if (await store.addFeedback(key, interactionId, action, now())) return;
      sent = await store.sent(key, interactionId, now());
    }
    if (sent === undefined) {
      this.#options.report(
        new RecordingError(
          'feedback_unknown_interaction',
          `Feedback on interaction ${interactionId} of conversation ${conversationId} was not recorded: no open conversation ` +
            'holds it, and none sent within feedbackRetentionMs did',
          conversationId,
        ),
      );
      return;
    }
    // The service links feedback by end user, input and output, to an interaction that
    // ended before the feedback's time.
    const timestamp = new Date(Math.max(now(), Date.parse(sent.timeEnd) + 1)).toISOString();
    let body: SendFeedbackBody | undefined = {
      action,
      metadata: { input: sent.input, output: sent.output, end_user: sent.endUser, timestamp },
    };
    if (this.#options.mask !== undefined) {
      // Loaded with the first masked body: its check of the mask's output needs zod.
      const { applyMask } = await import('../privacy/apply-mask.js');
      const masked = applyMask(this.#options.mask, 'feedback', body);
      if (masked.error !== undefined) this.#options.report(masked.error);
      body = masked.body;
    }
    // Past shutdown's deadline it was reported as not recorded: nothing more is done.
    if (body === undefined || this.#options.cutoff.passed) return;
    await this.#options.outbox.publish({
      conversationId,
      path: ENDPOINT_PATHS.sendFeedback.path,
      body: encoder.encode(JSON.stringify(body)),
      idempotencyKey: newId(),
      counted: false,
    });
  }
}
