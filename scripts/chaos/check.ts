/**
 * What the chaos run must show, checked from what reached the service: each conversation
 * once (one Idempotency-Key), whole, its turns in order, each feedback on its interaction;
 * a key received twice only when its first copy arrived by the time of the kill (a sender killed
 * mid-send, whose conversation was claimed again once its lease expired).
 */
import { ENDPOINTS } from '../../src/core/endpoints.js';
import { parseInput } from './protocol.js';
import type { Received } from './sink.js';

/** What the coordinator knows it asked for, and what the workers confirmed. */
export interface Ledger {
  readonly conversations: Map<string, { endUser: string; stored: Set<number>; unconfirmed: Set<number> }>;
  /** Feedback confirmed by a worker, as `conversationId turn`. */
  readonly feedback: Set<string>;
  /** Feedback whose worker was killed before it answered: stored or not, as `conversationId turn`. */
  readonly unconfirmedFeedback: Set<string>;
  /** The worker killed mid-send (its name); `undefined` before. */
  killed: string | undefined;
}

export interface Verdict {
  readonly failures: string[];
  readonly figures: {
    conversationsDelivered: number;
    turnsDelivered: number;
    postsOfConversations: number;
    duplicatesFromKilledSender: number;
    feedbackInConversations: number;
    feedbackThroughEndpoint: number;
    unconfirmedTurnsDelivered: number;
  };
}

interface Interaction {
  input?: unknown;
  feedback_actions?: { slug?: unknown }[];
}
interface Bulk {
  conversation?: { end_user?: unknown; interactions?: Interaction[] };
}
interface Feedback {
  action?: { slug?: unknown };
  feedback?: { slug?: unknown };
  metadata?: { input?: unknown; end_user?: unknown };
}

/** Where two bodies differ, in a few words: the first differing path. */
function differences(a: unknown, b: unknown, path = ''): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return 'none';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return `${path || 'body'}: ${JSON.stringify(a)} then ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const [x, y] = [(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]];
    if (JSON.stringify(x) !== JSON.stringify(y)) return differences(x, y, `${path}.${key}`);
  }
  return 'none';
}

const feedbackPath = (ENDPOINTS as Record<string, { path: string } | undefined>).sendFeedback?.path;

/**
 * Checks `received` against `ledger`.
 *
 * @example
 * ```ts
 * const { failures, figures } = verdict(sink.received, ledger);
 * ```
 */
export function verdict(received: readonly Received[], ledger: Ledger): Verdict {
  const failures: string[] = [];
  const accepted = received.filter((post) => post.status >= 200 && post.status < 300);
  const byKey = new Map<string, Received[]>();
  for (const post of accepted.filter((post) => post.path === ENDPOINTS.sendConversation.path)) {
    if (post.idempotencyKey === undefined) failures.push('a conversation was posted without an Idempotency-Key');
    const key = post.idempotencyKey ?? `none ${byKey.size}`;
    byKey.set(key, [...(byKey.get(key) ?? []), post]);
  }

  let duplicatesFromKilledSender = 0;
  const keysOf = new Map<string, string[]>();
  const feedbackSeen = new Set<string>();
  let feedbackInConversations = 0;
  let turnsDelivered = 0;
  let unconfirmedTurnsDelivered = 0;
  for (const [key, posts] of byKey) {
    const [first, ...again] = posts as [Received, ...Received[]];
    for (const repeat of again) {
      const same = JSON.stringify(repeat.body) === JSON.stringify(first.body);
      // By who sent it, not when it arrived: bytes the killed process wrote before it died
      // may reach the service after the kill was noted.
      if (ledger.killed !== undefined && first.sender === ledger.killed && same) duplicatesFromKilledSender += 1;
      else if (!same) failures.push(`key ${key} was sent again with another body: ${differences(first.body, repeat.body)}`);
      else failures.push(`key ${key} was sent again with no sender killed mid-send to explain it`);
    }
    const body = first.body as Bulk;
    const turns = (body.conversation?.interactions ?? []).map((interaction) => ({ interaction, at: parseInput(interaction.input) }));
    const ids = new Set(turns.map((turn) => turn.at?.conversationId));
    const [conversationId] = ids;
    if (ids.size !== 1 || conversationId === undefined) {
      failures.push(`key ${key} holds turns of ${ids.size} conversations`);
      continue;
    }
    keysOf.set(conversationId, [...(keysOf.get(conversationId) ?? []), key]);
    const expected = ledger.conversations.get(conversationId);
    if (expected === undefined) {
      failures.push(`conversation ${conversationId} was never recorded`);
      continue;
    }
    if (body.conversation?.end_user !== expected.endUser) failures.push(`conversation ${conversationId} has the wrong end user`);
    const numbers = turns.map((turn) => turn.at!.turn);
    if (numbers.join() !== [...numbers].sort((a, b) => a - b).join()) failures.push(`conversation ${conversationId}: turns out of order (${numbers.join()})`);
    if (new Set(numbers).size !== numbers.length) failures.push(`conversation ${conversationId}: a turn twice (${numbers.join()})`);
    for (const number of expected.stored) if (!numbers.includes(number)) failures.push(`conversation ${conversationId}: stored turn ${number} missing`);
    for (const { interaction, at } of turns) {
      turnsDelivered += 1;
      if (!expected.stored.has(at!.turn)) {
        if (expected.unconfirmed.has(at!.turn)) unconfirmedTurnsDelivered += 1;
        else failures.push(`conversation ${conversationId}: turn ${at!.turn} was never recorded`);
      }
      for (const action of interaction.feedback_actions ?? []) {
        const id = `${conversationId} ${at!.turn}`;
        if (action.slug !== 'thumbs_up' || (!ledger.feedback.has(id) && !ledger.unconfirmedFeedback.has(id) && !expected.unconfirmed.has(at!.turn))) {
          failures.push(`conversation ${conversationId}: feedback on turn ${at!.turn}, which got none`);
        }
        feedbackSeen.add(id);
        feedbackInConversations += 1;
      }
    }
  }

  let feedbackThroughEndpoint = 0;
  for (const post of accepted.filter((post) => post.path === feedbackPath)) {
    const body = post.body as Feedback;
    const at = parseInput(body.metadata?.input);
    const id = at === undefined ? '?' : `${at.conversationId} ${at.turn}`;
    if (at === undefined || !(ledger.feedback.has(id) || ledger.unconfirmedFeedback.has(id))) failures.push(`feedback posted for ${id}, which got none`);
    else if (body.metadata?.end_user !== ledger.conversations.get(at.conversationId)?.endUser) failures.push(`feedback for ${id}: wrong end user`);
    feedbackThroughEndpoint += 1;
    feedbackSeen.add(id);
  }

  for (const [conversationId, { stored }] of ledger.conversations) {
    const keys = keysOf.get(conversationId) ?? [];
    if (stored.size > 0 && keys.length === 0) failures.push(`conversation ${conversationId} never reached the service`);
    if (keys.length > 1) {
      // Which turns each post held, who sent it and when: what tells a split's cause.
      const posts = keys.map((key) => {
        const post = byKey.get(key)![0]!;
        const turns = ((post.body as Bulk).conversation?.interactions ?? []).map((interaction) => parseInput(interaction.input)?.turn);
        return `turns ${turns.join()} from ${post.sender} at ${new Date(post.at).toISOString().slice(11, 23)}`;
      });
      failures.push(`conversation ${conversationId} reached the service as ${keys.length} conversations (${posts.join('; ')})`);
    }
  }
  for (const id of ledger.feedback) {
    if (!feedbackSeen.has(id)) failures.push(`feedback on conversation ${id.replace(' ', ', turn ')} never arrived`);
  }

  return {
    failures,
    figures: {
      conversationsDelivered: keysOf.size,
      turnsDelivered,
      postsOfConversations: [...byKey.values()].reduce((sum, posts) => sum + posts.length, 0),
      duplicatesFromKilledSender,
      feedbackInConversations,
      feedbackThroughEndpoint,
      unconfirmedTurnsDelivered,
    },
  };
}
