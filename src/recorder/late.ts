import { NebulyError } from '../core/errors.js';
import { ENDPOINT_PATHS } from '../core/endpoint-paths.js';
import type { Mask } from '../core/privacy-options.js';
import type { AddTagsBody, SendFeedbackBody } from '../schemas/index.js';
import type { Attachment, ConversationStore, SentInteraction, StoredInteraction } from '../types/store.js';
import { messageOf, RecordingError } from './errors.js';
import { storeLost } from './store-lost.js';
import { newId } from './ids.js';
import { CUT, type Cutoff } from './outbox.js';
import { Progress } from './bounded-jobs.js';
import { startTimer } from './timers.js';
import type { Outbox } from './outbox.js';
import type { ConversationRef } from './storing.js';

/** What {@link LateSender} needs. */
export interface LateSenderOptions {
  store: ConversationStore;
  outbox: Outbox;
  report: (error: NebulyError) => void;
  now: () => number;
  mask: Mask | undefined;
  /** Passes at shutdown's deadline: what is not recorded by then is reported, no store call awaited. */
  cutoff: Cutoff;
  /** With a shared store: how long an attachment waits for its interaction, which another instance may still be storing (`settleMs`). */
  settleMs?: number | undefined;
  /** Resolves once the interactions of the conversation `key` taken so far are in the store; `undefined`: they are. */
  stored: (key: string) => Promise<void> | undefined;
  /** Resolves once the conversations being sent by this process are sent: one may hold the interaction. */
  sending: () => Promise<void>;
  /** With `delivery: 'interaction'`: what this process sent of the interaction, kept for late attachments. */
  sentHere: (key: string, interactionId: string) => SentInteraction | undefined;
  /** How long what was sent of an interaction is kept for them (`feedbackRetentionMs`). */
  retentionMs: number;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/** How many times, spread over `settleMs`, an attachment looks again for an interaction not in the store yet. */
const SETTLE_RETRIES = 4;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => startTimer(resolve, ms, { keepAlive: true }));
}

/** What differs between the kinds of attachment: how they are named, and their endpoint's body. */
const KINDS = {
  feedback: {
    what: 'Feedback',
    unknown: 'feedback_unknown_interaction',
    path: ENDPOINT_PATHS.sendFeedback.path,
    // The service links feedback by end user, input and output, to an interaction that
    // ended before the feedback's time.
    body: (attachment: Attachment & { kind: 'feedback' }, sent: SentInteraction, now: number): SendFeedbackBody => ({
      action: attachment.action,
      metadata: { input: sent.input, output: sent.output, end_user: sent.endUser, timestamp: new Date(Math.max(now, Date.parse(sent.timeEnd) + 1)).toISOString() },
    }),
  },
  tags: {
    what: 'Tags',
    unknown: 'tags_unknown_interaction',
    path: ENDPOINT_PATHS.addTags.path,
    // The service finds the interaction by end user and `time_start`; input and output
    // tell apart two of the same millisecond.
    body: (attachment: Attachment & { kind: 'tags' }, sent: SentInteraction): AddTagsBody => ({
      tags: { ...attachment.tags },
      metadata: { end_user: sent.endUser, time_start: sent.timeStart, input: sent.input, output: sent.output },
    }),
  },
} as const;

/** The body of the endpoint that takes `attachment` for an interaction already sent. */
function bodyOf(attachment: Attachment, sent: SentInteraction, now: number): SendFeedbackBody | AddTagsBody {
  return attachment.kind === 'feedback' ? KINDS.feedback.body(attachment, sent, now) : KINDS.tags.body(attachment, sent);
}

/**
 * Feedback and tags that arrive after their interaction ended (`nebuly.feedback()`,
 * `nebuly.tag()`), from any instance: attached to the stored interaction while its
 * conversation is open; once it was sent, posted to the feedback or tags endpoint with
 * what the store kept of the interaction (input, output, end user, times), which is how
 * the service links them, under an `Idempotency-Key` of their own. Never throws; what
 * cannot be done is reported.
 *
 * @example
 * ```ts
 * await late.send(sharedKey(chatId), 'chat-1', turnId, { kind: 'tags', tags: { csat: '5' } });
 * ```
 */
export class LateSender {
  readonly #options: LateSenderOptions;
  /** Attachments on their way, for a flush to wait for. */
  readonly #pending = new Progress();

  constructor(options: LateSenderOptions) {
    this.#options = options;
  }

  /** Resolves once every attachment taken before the call was attached, sent, or reported. */
  drained(): Promise<void> {
    return this.#pending.whenDone();
  }

  /**
   * With `delivery: 'interaction'` and a shared store: keeps in the store what was sent of
   * `stored`, which never went through it, so that feedback and tags reach it from any
   * instance (this one also keeps it itself: `sentHere`). Never throws; a failure is reported.
   */
  keep(conversation: ConversationRef, stored: StoredInteraction): void {
    const { store, now, retentionMs, cutoff, report } = this.#options;
    if (!store.shared || retentionMs <= 0 || cutoff.passed) return;
    const job = cutoff
      .race(Promise.resolve().then(() => store.keep(conversation.key, conversation.endUser, [stored], now(), now() + retentionMs)))
      .then(
        () => undefined,
        (cause: unknown) => {
          report(storeLost(cause, conversation.id) ?? new NebulyError(`Interaction ${stored.id} was sent, but the store did not keep it for later feedback and tags: ${messageOf(cause)}`, { cause }));
        },
      );
    this.#track(job);
  }

  /**
   * The attachment as the store may keep it: with a mask, masked as what it becomes, part
   * of a stored interaction (a conversation body of one interaction holding only it, input
   * and output empty), fail closed; `undefined` when the mask withheld it (reported).
   */
  async #maskedToKeep(attachment: Attachment): Promise<Attachment | undefined> {
    const { mask, report, now } = this.#options;
    if (mask === undefined) return attachment;
    const { applyMask } = await import('../privacy/apply-mask.js');
    const time = new Date(now()).toISOString();
    const only = attachment.kind === 'feedback' ? { feedback_actions: [attachment.action] } : { tags: { ...attachment.tags } };
    const { body, error } = applyMask(mask, 'conversation', { conversation: { end_user: '-', interactions: [{ input: '', output: '', time_start: time, time_end: time, ...only }] } });
    if (error !== undefined) report(error);
    const interaction = body?.conversation.interactions[0];
    if (attachment.kind === 'feedback') {
      const action = interaction?.feedback_actions?.[0];
      return action === undefined ? undefined : { kind: 'feedback', action };
    }
    return interaction?.tags === undefined ? undefined : { kind: 'tags', tags: interaction.tags };
  }

  #track(job: Promise<void>): void {
    const number = this.#pending.begin();
    void job.finally(() => this.#pending.finish(number));
  }

  /** Attaches or sends `attachment` for the interaction; never rejects. */
  send(key: string, conversationId: string, interactionId: string, attachment: Attachment): Promise<void> {
    const { cutoff, report } = this.#options;
    const { what } = KINDS[attachment.kind];
    const job = cutoff.race(this.#send(key, conversationId, interactionId, attachment)).then(
      (done) => {
        if (done === CUT) report(new NebulyError(`${what} on interaction ${interactionId} not recorded: ${messageOf(cutoff.reason)}`));
      },
      (cause: unknown) => {
        report(storeLost(cause, conversationId) ?? new NebulyError(`${what} on interaction ${interactionId} could not be recorded: ${messageOf(cause)}`, { cause }));
      },
    );
    this.#track(job);
    return job;
  }

  async #send(key: string, conversationId: string, interactionId: string, attachment: Attachment): Promise<void> {
    const { store, now, stored, sending } = this.#options;
    await stored(key);
    // What is attached in the store goes out with its conversation, which was masked
    // when stored: the attachment is masked now, on its own.
    const kept = await this.#maskedToKeep(attachment);
    // Withheld by the mask (reported): nothing of it may go out.
    if (kept === undefined) return;
    const attach = () => store.attach(key, interactionId, kept, now());
    if (await attach()) return;
    let sent = (await store.sent(key, interactionId, now())) ?? this.#options.sentHere(key, interactionId);
    if (sent === undefined) {
      // Its conversation may be on its way from this process: it is then kept once sent.
      await sending();
      if (await attach()) return;
      sent = await store.sent(key, interactionId, now());
    }
    // Another instance may have ended it just now and still be storing it: retried a
    // few times within `settleMs`.
    const settleMs = this.#options.settleMs ?? 0;
    for (let retry = 1; sent === undefined && retry <= SETTLE_RETRIES && settleMs > 0 && !this.#options.cutoff.passed; retry += 1) {
      await this.#options.cutoff.race(delay(settleMs / SETTLE_RETRIES));
      if (await attach()) return;
      sent = await store.sent(key, interactionId, now());
    }
    const kind = KINDS[attachment.kind];
    if (sent === undefined) {
      this.#options.report(
        new RecordingError(
          kind.unknown,
          `${kind.what} on interaction ${interactionId} of conversation ${conversationId} not recorded: no open conversation ` +
            'holds it, and none sent within feedbackRetentionMs did',
          conversationId,
        ),
      );
      return;
    }
    let body: SendFeedbackBody | AddTagsBody | undefined = bodyOf(attachment, sent, now());
    const { mask, report } = this.#options;
    if (mask !== undefined) {
      // Loaded with the first masked body: its check of the mask's output needs zod.
      const { applyMask } = await import('../privacy/apply-mask.js');
      const masked = attachment.kind === 'feedback' ? applyMask(mask, 'feedback', body as SendFeedbackBody) : applyMask(mask, 'tags', body as AddTagsBody);
      if (masked.error !== undefined) report(masked.error);
      body = masked.body;
    }
    // Past shutdown's deadline it was reported as not recorded: nothing more is done.
    if (body === undefined || this.#options.cutoff.passed) return;
    await this.#options.outbox.publish({
      conversationId,
      path: kind.path,
      body: encoder.encode(JSON.stringify(body)),
      idempotencyKey: newId(),
      counted: false,
    });
  }
}
