import type { NebulyClient } from '../client.js';
import type { Conversation } from '../recorder/conversation.js';
import type { Turn } from '../recorder/turn.js';

/**
 * Where what an integration observes goes, the same for every integration:
 *
 * - `{ turn }`: each observed call is a step of that open turn; you end the turn.
 * - `{ conversation }`: each observed call is a turn of its own in that conversation
 *   (input = the last user message's text, output = the answer's text), ended when the
 *   call ends.
 * - `{ nebuly, endUser, conversationId?, tags? }` (standalone): calls with the same
 *   `conversationId` (and `endUser`) go into one recorded conversation, ended by
 *   {@link endConversation}, the idle time-out or `nebuly.shutdown()`; a call without a
 *   `conversationId` is a conversation of one interaction, sent as soon as the call ends.
 *
 * @example
 * ```ts
 * import { observeOpenAI } from 'nebuly-client/openai';
 *
 * // Steps of a turn you record yourself:
 * const turn = conversation.interaction({ input: question });
 * const openai = observeOpenAI(new OpenAI(), { turn });
 * // Or one conversation per chat session, without a recorder of your own:
 * const perUser = observeOpenAI(new OpenAI(), { nebuly, endUser: userHash, conversationId: sessionId });
 * ```
 */
export type NebulyTarget =
  | { turn: Turn }
  | { conversation: Conversation }
  | {
      nebuly: NebulyClient;
      /** Who the conversation is with; hash it first (`hashEndUser`). */
      endUser: string;
      /** Your id of the chat session: calls with the same id are one conversation. */
      conversationId?: string | undefined;
      /** Tags of every interaction recorded through this target. */
      tags?: Record<string, string> | undefined;
    };
