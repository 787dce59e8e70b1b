import { checkNonEmptyString, checkTags, Found, unreadableIssues } from '../schemas/plain-checks.js';
import type { Issue } from '../utils/issues.js';
import { copyPlainObject, fieldsOf } from './fields.js';
import { newId } from './ids.js';

/** Parameters of `nebuly.startConversation`. */
export interface StartConversationParams {
  /** Who the conversation is with; hash it first (`hashEndUser`) so that nothing identifies them. */
  end_user: string;
  /** Tags of every interaction of the conversation; an interaction's own tags win. */
  tags?: Record<string, string> | undefined;
  /**
   * Your id for the conversation, used to name it in errors and outcomes. The bulk
   * endpoint has no such field, so it is not sent. @default a random UUID
   */
  conversation_id?: string | undefined;
}

const START_FIELDS = ['end_user', 'tags', 'conversation_id'] as const;

type StartResult = { success: true; data: StartConversationParams } | { success: false; issues: Issue[] };

/**
 * @internal The start parameters as read, against `{ end_user: nonEmptyString, tags?:
 * tags, conversation_id?: nonEmptyString }`, checked without zod
 * (`schemas/plain-checks.ts`): the issues, in the fields' order, are those zod would give
 * (test/fuzz/plain-checks.test.ts).
 * @example
 * ```ts
 * checkStartFields({ end_user: '', tags: undefined, conversation_id: undefined }); // issues: end_user must not be empty
 * ```
 */
export function checkStartFields(read: Readonly<Record<(typeof START_FIELDS)[number], unknown>>): StartResult {
  const found = new Found(read);
  try {
    const { end_user, tags, conversation_id } = read;
    checkNonEmptyString(end_user, ['end_user'], found);
    const copied = tags === undefined ? undefined : checkTags(tags, ['tags'], found);
    if (conversation_id !== undefined) checkNonEmptyString(conversation_id, ['conversation_id'], found);
    if (found.issues.length > 0) return { success: false, issues: found.issues };
    return { success: true, data: { end_user: end_user as string, tags: copied, conversation_id: conversation_id as string | undefined } };
  } catch {
    return { success: false, issues: unreadableIssues(read) };
  }
}

/** Start parameters after checking: what can be used, and what was wrong. */
export interface CheckedStart {
  conversationId: string;
  /** Whether `conversationId` is the caller's (else made up here). */
  idGiven: boolean;
  /** `undefined` when `end_user` is unusable: the conversation cannot be sent at all. */
  endUser: string | undefined;
  tags: Record<string, string> | undefined;
  issues: Issue[];
}

/**
 * Checks `startConversation`'s parameters once per conversation. A bad tag is left out,
 * a bad `conversation_id` replaced; only a bad `end_user` makes the conversation unusable.
 */
export function checkStartParams(params: StartConversationParams, idRequired = false): CheckedStart {
  // Validated as read once, here: a getter that throws or a revoked Proxy becomes a
  // value validation names, instead of an exception inside the check.
  const fields = fieldsOf(params, START_FIELDS);
  const read = { ...fields, tags: copyPlainObject(fields.tags) };
  const result = checkStartFields(read);
  if (result.success) {
    const { end_user, tags: given, conversation_id } = result.data;
    if (conversation_id !== undefined || !idRequired) {
      return {
        conversationId: conversation_id ?? newId(),
        idGiven: conversation_id !== undefined,
        endUser: end_user,
        // The check's output is a copy: the caller may change their object afterwards.
        tags: given,
        issues: [],
      };
    }
  }
  const issues = result.success ? [] : result.issues;
  if (idRequired && fields.conversation_id === undefined) {
    issues.push({
      path: ['conversation_id'],
      message: 'is required by nebuly.conversation(): the id every instance resumes the conversation by (startConversation() makes one up)',
      code: 'invalid_type',
    });
  }
  const bad = new Set(issues.map((issue) => issue.path.slice(0, 2).join('\u0000')));
  // Fields that passed validation have their schema's types.
  const { end_user, conversation_id, tags: given } = read as Partial<StartConversationParams>;

  let keptTags: Record<string, string> | undefined;
  if (given !== undefined && !bad.has('tags')) {
    keptTags = {};
    for (const [key, value] of Object.entries(given)) {
      if (!bad.has(`tags\u0000${key}`)) keptTags[key] = value;
    }
  }
  const idKept = conversation_id !== undefined && !bad.has('conversation_id');
  return {
    conversationId: idKept ? conversation_id : newId(),
    idGiven: idKept,
    endUser: !bad.has('end_user') ? end_user : undefined,
    tags: keptTags,
    issues,
  };
}
