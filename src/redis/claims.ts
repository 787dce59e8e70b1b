import type { ConversationFeedbackAction } from '../schemas/index.js';
import type { ConversationClaim, StoredInteraction } from '../types/store.js';
import { RedisStoreError } from './commands.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/**
 * A claim as the scripts answer it (`[generation, token, conversation id, end user, last
 * activity, interaction JSONs, feedback id/actions pairs]`), as the store returns it:
 * each interaction parsed, with the feedback attached since it was stored appended to
 * its `feedback_actions`.
 *
 * @example
 * ```ts
 * const claim = decodeClaim('claim', await commands.run('claim', SCRIPTS.claim, keys, args));
 * ```
 */
export function decodeClaim(operation: string, reply: unknown): ConversationClaim {
  if (!Array.isArray(reply) || reply.length !== 7 || !Array.isArray(reply[5]) || !Array.isArray(reply[6])) {
    throw new RedisStoreError(operation, 'the server answered a claim in an unexpected shape (was the store written by another version?)');
  }
  const [generation, token, conversationId, endUser, lastActivityAt, items, feedback] = reply as [
    unknown,
    unknown,
    unknown,
    unknown,
    unknown,
    unknown[],
    unknown[],
  ];
  const added = new Map<string, ConversationFeedbackAction[]>();
  for (let index = 0; index + 1 < feedback.length; index += 2) {
    added.set(text(feedback[index]), JSON.parse(`[${text(feedback[index + 1])}]`) as ConversationFeedbackAction[]);
  }
  const interactions = items.map((item) => {
    const stored = JSON.parse(text(item)) as StoredInteraction;
    const actions = added.get(stored.id);
    if (actions === undefined) return stored;
    const feedback_actions = [...(stored.interaction.feedback_actions ?? []), ...actions];
    return { id: stored.id, interaction: { ...stored.interaction, feedback_actions } };
  });
  return {
    conversationId: text(conversationId),
    generation: text(generation),
    token: text(token),
    endUser: text(endUser),
    interactions,
    lastActivityAt: Number(text(lastActivityAt)),
  };
}
