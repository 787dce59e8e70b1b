import * as z from 'zod/mini';
import type { Issue } from '../utils/issues.js';
import { safeParseInput } from '../core/validate.js';
import { nonEmptyString, tags } from '../schemas/common.js';
import { copyPlainObject, fieldNames, fieldsOf } from './fields.js';
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

const startParamsSchema = z.object({
  end_user: nonEmptyString,
  tags: z.optional(tags),
  conversation_id: z.optional(nonEmptyString),
});
const START_FIELDS = /* @__PURE__ */ fieldNames(startParamsSchema);

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
  // value validation names, instead of an exception inside zod.
  const fields = fieldsOf(params, START_FIELDS);
  const read = { ...fields, tags: copyPlainObject(fields.tags) };
  const result = safeParseInput(startParamsSchema, read);
  if (result.success) {
    const { end_user, tags: given, conversation_id } = result.data;
    if (conversation_id !== undefined || !idRequired) {
      return {
        conversationId: conversation_id ?? newId(),
        idGiven: conversation_id !== undefined,
        endUser: end_user,
        // zod's output is a copy: the caller may change their object afterwards.
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
