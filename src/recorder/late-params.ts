import { ValidationError, type NebulyError } from '../core/nebuly-error.js';
import type { ConversationFeedbackAction } from '../schemas/index.js';
import { checkFeedbackAction, checkTags, Found, unreadableIssues } from '../schemas/plain-checks.js';
import type { Attachment } from '../types/store.js';
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

/**
 * Parameters of `nebuly.tag`: which interaction (its `turn.id`, in the conversation of
 * `nebuly.conversation({ conversation_id })`), and the tags to add to it (string values;
 * a tag it has already takes the new value).
 *
 * @example
 * ```ts
 * const params: TagParams = { conversation_id: chatId, interaction_id: turnId, tags: { ticket: 'resolved', csat: '5' } };
 * ```
 */
export interface TagParams {
  conversation_id: string;
  interaction_id: string;
  tags: Record<string, string>;
}

/** Feedback or tags checked: which interaction, and what to attach to it. */
export interface CheckedAttachment {
  conversationId: string;
  interactionId: string;
  attachment: Attachment;
}

const FEEDBACK_FIELDS = ['conversation_id', 'interaction_id', 'slug', 'text', 'value'] as const;
const TAG_FIELDS = ['conversation_id', 'interaction_id', 'tags'] as const;

/** The interaction's ids, each a non-empty string; their issues go to `issues`. */
function checkIds(fields: { conversation_id?: unknown; interaction_id?: unknown }, issues: Issue[]): void {
  for (const name of ['conversation_id', 'interaction_id'] as const) {
    const value = fields[name];
    if (typeof value !== 'string' || value.trim() === '') {
      issues.push({ path: [name], message: 'must be a non-empty string', code: 'invalid_type' });
    }
  }
}

/**
 * Checks `nebuly.feedback()`'s params, at once (the stages that send feedback load later):
 * the ids and the action, or `undefined` after reporting what is wrong (named by field).
 *
 * @example
 * ```ts
 * const checked = checkFeedback({ conversation_id: 'chat-1', interaction_id: turnId, slug: 'thumbs_up' }, report);
 * ```
 */
export function checkFeedback(params: unknown, report: (error: NebulyError) => void): CheckedAttachment | undefined {
  const fields = fieldsOf(params as FeedbackParams, FEEDBACK_FIELDS);
  const issues: Issue[] = [];
  checkIds(fields, issues);
  const read = { slug: fields.slug, text: fields.text, value: fields.value };
  const found = new Found(read);
  const action = checkFeedbackAction(read, [], found);
  issues.push(...found.issues);
  if (issues.length > 0 || action === undefined) {
    report(new ValidationError(issues, 'nebuly.feedback() params (nothing recorded)'));
    return undefined;
  }
  return { conversationId: fields.conversation_id as string, interactionId: fields.interaction_id as string, attachment: { kind: 'feedback', action } };
}

/**
 * Checks `nebuly.tag()`'s params, at once: the ids and the tags (an object of string
 * values, at least one, none named `__proto__`), or `undefined` after reporting what is
 * wrong (named by field: `tags.csat`).
 *
 * @example
 * ```ts
 * const checked = checkTagParams({ conversation_id: 'chat-1', interaction_id: turnId, tags: { csat: '5' } }, report);
 * ```
 */
export function checkTagParams(params: unknown, report: (error: NebulyError) => void): CheckedAttachment | undefined {
  const fields = fieldsOf(params as TagParams, TAG_FIELDS);
  const issues: Issue[] = [];
  checkIds(fields, issues);
  const found = new Found({ tags: fields.tags });
  let tags: Record<string, string> | undefined;
  try {
    tags = checkTags(fields.tags, ['tags'], found);
  } catch {
    // A getter or Proxy threw: named by where.
    for (const issue of unreadableIssues(fields.tags)) issues.push({ ...issue, path: ['tags', ...issue.path] });
  }
  issues.push(...found.issues);
  if (tags !== undefined && Object.keys(tags).length === 0) {
    issues.push({ path: ['tags'], message: 'must name at least one tag', code: 'too_small' });
  }
  if (issues.length > 0 || tags === undefined) {
    report(new ValidationError(issues, 'nebuly.tag() params (nothing recorded)'));
    return undefined;
  }
  return { conversationId: fields.conversation_id as string, interactionId: fields.interaction_id as string, attachment: { kind: 'tags', tags } };
}
