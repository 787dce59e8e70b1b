/**
 * The conversations of standalone targets with a `conversationId` (`{ nebuly, endUser,
 * conversationId }`): one per client, end user and id, kept while open, and ended by
 * {@link endConversation}, the idle time-out or `nebuly.shutdown()`.
 */
import type { NebulyClient } from '../client.js';
import type { Conversation } from '../recorder/conversation.js';
import type { ConversationOutcome } from '../recorder/outcome.js';
import type { NebulyTarget } from './nebuly-target.js';

/** @internal A standalone target. */
export type StandaloneTarget = Extract<NebulyTarget, { nebuly: NebulyClient }>;

/**
 * The conversations of one client's standalone targets with a `conversationId`, by end
 * user and id: two users who happen to use the same id never share a conversation.
 * Conversations that ended (idle time-out, shutdown) are forgotten in sweeps, each when
 * the map has doubled since the last, so that a server seeing many sessions stays bounded.
 */
class Sessions {
  readonly byKey = new Map<string, Conversation>();
  #sweepAt = 64;

  static key(endUser: string, conversationId: string): string {
    return `${endUser}\u0000${conversationId}`;
  }

  /** The open conversation of a session, started (again) when there is none. */
  conversation(target: StandaloneTarget, conversationId: string): Conversation {
    const key = Sessions.key(target.endUser, conversationId);
    const current = this.byKey.get(key);
    if (current !== undefined && !current.ended) return current;
    if (this.byKey.size >= this.#sweepAt) {
      for (const [known, conversation] of this.byKey) if (conversation.ended) this.byKey.delete(known);
      this.#sweepAt = Math.max(64, this.byKey.size * 2);
    }
    const started = target.nebuly.startConversation({
      end_user: target.endUser,
      conversation_id: conversationId,
      tags: target.tags,
    });
    this.byKey.set(key, started);
    return started;
  }
}

const sessions = new WeakMap<NebulyClient, Sessions>();

/**
 * @internal How many standalone sessions of `nebuly` are remembered (ended ones until the
 * next sweep): for tests of the bound.
 * @example
 * ```ts
 * expect(sessionCount(nebuly)).toBe(1);
 * ```
 */
export function sessionCount(nebuly: NebulyClient): number {
  return sessions.get(nebuly)?.byKey.size ?? 0;
}

/**
 * @internal The open conversation of a standalone target's session, started (again) when there is none.
 * @example
 * ```ts
 * const conversation = sessionConversation(target, target.conversationId);
 * ```
 */
export function sessionConversation(target: StandaloneTarget, conversationId: string): Conversation {
  let known = sessions.get(target.nebuly);
  if (known === undefined) {
    known = new Sessions();
    sessions.set(target.nebuly, known);
  }
  return known.conversation(target, conversationId);
}

/**
 * Ends the conversation a standalone target with a `conversationId` records into, and
 * sends it. Resolves `undefined` when there is none open (no call yet, or already ended),
 * else the outcome of `conversation.end()`. Never rejects.
 *
 * @example
 * ```ts
 * const target = { nebuly, endUser: userHash, conversationId: sessionId };
 * const openai = observeOpenAI(new OpenAI(), target);
 * // … the chat session's calls …
 * await endConversation(target); // the user closed the chat
 * ```
 */
export function endConversation(target: NebulyTarget): Promise<ConversationOutcome | undefined> {
  if (!('nebuly' in target) || target.conversationId === undefined) return Promise.resolve(undefined);
  const byKey = sessions.get(target.nebuly)?.byKey;
  const key = Sessions.key(target.endUser, target.conversationId);
  const conversation = byKey?.get(key);
  if (conversation === undefined) return Promise.resolve(undefined);
  byKey?.delete(key);
  return conversation.ended ? Promise.resolve(undefined) : conversation.end();
}
