import { ENDPOINT_PATHS } from '../core/endpoint-paths.js';
import type { ConversationInteraction, SendInteractionBody } from '../schemas/index.js';
import type { SentInteraction, StoredInteraction } from '../types/store.js';
import type { ConversationOutcome } from './outcome.js';
import type { Outbox } from './outbox.js';
import type { ConversationRef } from './storing.js';

const encoder = /* @__PURE__ */ new TextEncoder();

/** The most interactions kept for late feedback, and the most memory they may take (the memory store's defaults). */
const MAX_KEPT = 10_000;
const MAX_KEPT_BYTES = 32 * 1024 * 1024;

/**
 * With `delivery: 'interaction'`: each checked interaction is sent at once to the
 * interaction endpoint, with its conversation's id and its own id as `Idempotency-Key`,
 * instead of waiting in the store for its conversation's end; the conversation's outcome
 * is then the first failure of its sends, else `delivered`.
 *
 * @example
 * ```ts
 * sends.send(conversation, stored);
 * const outcome = await sends.outcomeOf(conversation.key, conversation.id);
 * ```
 */
export class InteractionSends {
  readonly #outbox: Outbox;
  readonly #settled: (() => void) | undefined;
  /** Every send not settled. */
  readonly #running = new Set<Promise<ConversationOutcome>>();
  /** Each conversation's sends, until its outcome is asked for. */
  readonly #byConversation = new Map<string, Promise<ConversationOutcome>[]>();
  /**
   * What was sent of each interaction, for feedback that comes after it: no store holds
   * it in this mode. Oldest first, each until its `until`, at most {@link MAX_KEPT}
   * interactions and {@link MAX_KEPT_BYTES} (as the memory store keeps sent ones).
   */
  readonly #kept = new Map<string, { sent: SentInteraction; until: number; bytes: number }>();
  #keptBytes = 0;
  readonly #retention: { now: () => number; ms: number };

  constructor(outbox: Outbox, settled?: () => void, retention = { now: Date.now, ms: 0 }) {
    this.#outbox = outbox;
    this.#settled = settled;
    this.#retention = retention;
  }

  /** What was sent of the interaction `interactionId` of the conversation `key`, if it is still kept. */
  sent(key: string, interactionId: string): SentInteraction | undefined {
    const kept = this.#kept.get(`${key}\n${interactionId}`);
    return kept !== undefined && kept.until >= this.#retention.now() ? kept.sent : undefined;
  }

  #keep(key: string, id: string, endUser: string, interaction: ConversationInteraction): void {
    const { now, ms } = this.#retention;
    if (ms <= 0) return;
    const sent: SentInteraction = { endUser, input: interaction.input, output: interaction.output, timeEnd: interaction.time_end };
    const bytes = 2 * (sent.input.length + sent.output.length + endUser.length) + 256;
    this.#kept.set(`${key}\n${id}`, { sent, until: now() + ms, bytes });
    this.#keptBytes += bytes;
    // The oldest go first: past their time, or to make room.
    for (const [name, kept] of this.#kept) {
      if (kept.until >= now() && this.#kept.size <= MAX_KEPT && this.#keptBytes <= MAX_KEPT_BYTES) break;
      this.#kept.delete(name);
      this.#keptBytes -= kept.bytes;
    }
  }

  send(conversation: ConversationRef, stored: StoredInteraction): void {
    const sent = this.#outbox.publish({
      conversationId: conversation.id,
      path: ENDPOINT_PATHS.sendInteraction.path,
      body: interactionBody(conversation.id, conversation.endUser, stored.interaction),
      idempotencyKey: stored.id,
    });
    this.#keep(conversation.key, stored.id, conversation.endUser, stored.interaction);
    const sends = this.#byConversation.get(conversation.key);
    if (sends === undefined) this.#byConversation.set(conversation.key, [sent]);
    else sends.push(sent);
    this.#running.add(sent);
    void sent.finally(() => {
      this.#running.delete(sent);
      this.#settled?.();
    });
  }

  /** How many sends are not settled. */
  get count(): number {
    return this.#running.size;
  }

  /** Resolves once every send begun before the call is over. */
  async settledAll(): Promise<void> {
    if (this.#running.size > 0) await Promise.all(Array.from(this.#running));
  }

  /** The outcome of the conversation `key` from its sends, forgotten once asked; `undefined` when it had none. */
  outcomeOf(key: string, conversationId: string): Promise<ConversationOutcome> | undefined {
    const sends = this.#byConversation.get(key);
    if (sends === undefined) return undefined;
    this.#byConversation.delete(key);
    return Promise.all(sends).then((outcomes) => summarize(conversationId, outcomes));
  }
}

/**
 * The body of one interaction for the interaction endpoint (v3 `trace_interaction`),
 * which names its conversation: how `delivery: 'interaction'` sends each, and how a
 * conversation too large for one bulk body goes out.
 *
 * @example
 * ```ts
 * outbox.publish({ conversationId, path: ENDPOINT_PATHS.sendInteraction.path, body: interactionBody(conversationId, endUser, interaction), idempotencyKey });
 * ```
 */
export function interactionBody(conversationId: string, endUser: string, interaction: ConversationInteraction): Uint8Array {
  const body: SendInteractionBody = {
    interaction: {
      conversation_id: conversationId,
      input: interaction.input,
      output: interaction.output,
      time_start: interaction.time_start,
      time_end: interaction.time_end,
      end_user: endUser,
      ...(interaction.tags === undefined ? {} : { tags: interaction.tags }),
    },
    traces: interaction.trace ?? [],
    user_feedback: interaction.feedback_actions ?? [],
  };
  return encoder.encode(JSON.stringify(body));
}

/**
 * One outcome for a conversation sent an interaction at a time: the first failure, else delivered.
 *
 * @example
 * ```ts
 * summarize('chat-1', [{ status: 'delivered', conversationId: 'chat-1' }]); // delivered
 * ```
 */
export function summarize(conversationId: string, outcomes: readonly ConversationOutcome[]): ConversationOutcome {
  const failed = outcomes.find((outcome) => outcome.status === 'failed' || outcome.status === 'dropped');
  if (failed !== undefined) return { ...failed, conversationId };
  return outcomes.length === 0 ? { status: 'empty', conversationId } : { status: 'delivered', conversationId };
}
