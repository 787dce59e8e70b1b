import type { ConversationFeedbackAction } from '../schemas/index.js';
import type { ConversationClaim, StoredInteraction } from '../types/store.js';
import { RedisStoreError } from './commands.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/**
 * A claim as the scripts answer it (`['c', claim id, the claim hash's fields and values]`,
 * scripts.ts describes the fields), as the store returns it: each interaction parsed, in
 * the order stored, with the feedback attached since it was stored appended to its
 * `feedback_actions` and the tags attached merged over its `tags`.
 *
 * @example
 * ```ts
 * const claim = decodeClaim('claim', ['c', claimId, await hgetall(claimKey)]);
 * ```
 */
export function decodeClaim(operation: string, reply: unknown): ConversationClaim {
  const fields = Array.isArray(reply) && reply[0] === 'c' && Array.isArray(reply[2]) ? (reply[2] as unknown[]) : undefined;
  if (fields === undefined) {
    throw new RedisStoreError(operation, 'failed', 'the server answered a claim in an unexpected shape (was the store written by another version?)');
  }
  const meta = new Map<string, string>();
  const items: [number, string][] = [];
  const feedback = new Map<string, ConversationFeedbackAction[]>();
  const tags = new Map<string, Record<string, string>[]>();
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const field = text(fields[index]);
    const value = text(fields[index + 1]);
    if (field.startsWith('#')) items.push([Number(field.slice(1)), value]);
    else if (field.startsWith('f:')) feedback.set(field.slice(2), JSON.parse(`[${value}]`) as ConversationFeedbackAction[]);
    else if (field.startsWith('t:')) tags.set(field.slice(2), JSON.parse(`[${value}]`) as Record<string, string>[]);
    else if (!field.startsWith('n:')) meta.set(field, value);
  }
  // A hash has no order: the sequence number each got when appended gives it back.
  items.sort((a, b) => a[0] - b[0]);
  const interactions = items.map(([, json]) => {
    const stored = JSON.parse(json) as StoredInteraction;
    const actions = feedback.get(stored.id);
    const added = tags.get(stored.id);
    if (actions === undefined && added === undefined) return stored;
    let { interaction } = stored;
    if (actions !== undefined) interaction = { ...interaction, feedback_actions: [...(interaction.feedback_actions ?? []), ...actions] };
    // Later tags of the same name win, as they would in the memory store.
    // Spread, not assigned: a parsed own `__proto__` key stays a key.
    if (added !== undefined) interaction = { ...interaction, tags: added.reduce((merged, more) => ({ ...merged, ...more }), interaction.tags ?? {}) };
    return { ...stored, interaction };
  });
  return {
    conversationId: meta.get('cid') ?? '',
    generation: meta.get('gen') ?? '',
    token: meta.get('token') ?? '',
    endUser: meta.get('user') ?? '',
    interactions,
    lastActivityAt: Number(meta.get('last')),
  };
}
