import { ValidationError, type NebulyError } from '../core/errors.js';
import type { ConversationFeedbackAction } from '../schemas/index.js';
import { checkFeedbackAction, Found } from '../schemas/plain-checks.js';
import type { Issue } from '../utils/issues.js';
import { fieldsOf } from './fields.js';

/**
 * Parameters of `nebuly.feedback`: which interaction (its `turn.id`, in the conversation
 * of `nebuly.conversation({ conversation_id })`), and the action.
 *
 * @example
 * ```ts
 * const params: FeedbackParams = { conversation_id: chatId, interaction_id: turnId, slug: 'thumbs_up' };
 * ```
 */
export interface FeedbackParams {
  conversation_id: string;
  interaction_id: string;
  slug: ConversationFeedbackAction['slug'];
  text?: string | undefined;
  value?: number | undefined;
}

/** Feedback checked: which interaction, and the action. */
export interface CheckedFeedback {
  conversationId: string;
  interactionId: string;
  action: ConversationFeedbackAction;
}

const FIELDS = ['conversation_id', 'interaction_id', 'slug', 'text', 'value'] as const;

/**
 * Checks `nebuly.feedback()`'s params, at once (the stages that send feedback load later):
 * the ids and the action, or `undefined` after reporting what is wrong (named by field).
 *
 * @example
 * ```ts
 * const checked = checkFeedback({ conversation_id: 'chat-1', interaction_id: turnId, slug: 'thumbs_up' }, report);
 * ```
 */
export function checkFeedback(params: unknown, report: (error: NebulyError) => void): CheckedFeedback | undefined {
  const fields = fieldsOf(params as FeedbackParams, FIELDS);
  const issues: Issue[] = [];
  for (const name of ['conversation_id', 'interaction_id'] as const) {
    const value = fields[name];
    if (typeof value !== 'string' || value.trim() === '') {
      issues.push({ path: [name], message: 'must be a non-empty string', code: 'invalid_type' });
    }
  }
  const read = { slug: fields.slug, text: fields.text, value: fields.value };
  const found = new Found(read);
  const action = checkFeedbackAction(read, [], found);
  issues.push(...found.issues);
  if (issues.length > 0 || action === undefined) {
    report(new ValidationError(issues, 'nebuly.feedback() params (nothing recorded)'));
    return undefined;
  }
  return { conversationId: fields.conversation_id as string, interactionId: fields.interaction_id as string, action };
}
