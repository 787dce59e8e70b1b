/**
 * The conversations of standalone targets with a `conversationId` (`{ nebuly, endUser,
 * conversationId }`): one per client, end user and id, kept while open, and ended by
 * {@link endConversation}, the idle time-out or `nebuly.shutdown()`.
 *
 * {@link sessionConversation} is the one place that finds a session's conversation: it
 * resumes it by id with `nebuly.conversation()`, so that a chat observed in several
 * instances that share a store is one conversation.
 */
import type { NebulyClient } from '../client.js';
import type { Conversation } from '../recorder/conversation.js';
import type { NebulyTarget } from './nebuly-target.js';
import { SweepingMap } from './sweeping-map.js';

/** @internal A standalone target. */
export type StandaloneTarget = Extract<NebulyTarget, { nebuly: NebulyClient }>;

/**
 * The conversations of one client's standalone targets with a `conversationId`, by end
 * user and id: two users who happen to use the same id never share a conversation.
 * Conversations that ended (idle time-out, shutdown) are let go as the map grows.
 */
const sessions = new WeakMap<NebulyClient, SweepingMap<string, Conversation>>();

function keyOf(endUser: string, conversationId: string): string {
  return `${endUser}\u0000${conversationId}`;
}

/**
 * @internal How many standalone sessions of `nebuly` are remembered (ended ones until the
 * next sweep): for tests of the bound.
 * @example
 * ```ts
 * expect(sessionCount(nebuly)).toBe(1);
 * ```
 */
export function sessionCount(nebuly: NebulyClient): number {
  return sessions.get(nebuly)?.size ?? 0;
}

/**
 * @internal The open conversation of a standalone target's session, started (again) when there is none.
 * @example
 * ```ts
 * const conversation = sessionConversation(target, target.conversationId);
 * ```
 */
export function sessionConversation(target: StandaloneTarget, conversationId: string): Conversation {
  let byKey = sessions.get(target.nebuly);
  if (byKey === undefined) {
    byKey = new SweepingMap((conversation) => conversation.ended);
    sessions.set(target.nebuly, byKey);
  }
  const key = keyOf(target.endUser, conversationId);
  const current = byKey.get(key);
  if (current !== undefined && !current.ended) return current;
  const params = { end_user: target.endUser, conversation_id: conversationId, tags: target.tags };
  // Resumed by id wherever it was recorded (in this process, or, with a shared store, in
  // any instance). Another user's open conversation of the same id stays theirs: this
  // user's goes apart, in this process.
  const resumed = target.nebuly.conversation(params);
  const started = resumed.endUser === target.endUser ? resumed : target.nebuly.startConversation(params);
  byKey.set(key, started);
  return started;
}

/**
 * @internal Takes a session's conversation out of the map (it is about to be ended):
 * `undefined` when there is none open.
 * @example
 * ```ts
 * const conversation = takeSession(nebuly, userHash, chatId);
 * ```
 */
export function takeSession(nebuly: NebulyClient, endUser: string, conversationId: string): Conversation | undefined {
  const byKey = sessions.get(nebuly);
  const key = keyOf(endUser, conversationId);
  const conversation = byKey?.get(key);
  byKey?.delete(key);
  return conversation === undefined || conversation.ended ? undefined : conversation;
}
