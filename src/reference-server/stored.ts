/** What the reference server stores: users and interactions, in the shapes it answers. */
import type { ConversationFeedbackAction, TraceStep, UserRecord } from '../schemas/index.js';
import { userRecordSchema } from '../schemas/users.js';

/**
 * A user as the reference stores and answers it (EligibleUser / PlatformUser): the record as sent.
 * @example
 * ```ts
 * const user: StoredUser = { end_user: 'u-1', tags: {}, active_from: '2026-01-01', active_to: null };
 * ```
 */
export interface StoredUser extends Omit<UserRecord, 'active_to'> {
  /** `null` while access has not been revoked, as a FastAPI service answers a missing value. */
  active_to: string | null;
}

/**
 * A user record as stored: the fields of its schema as sent, in the schema's order (a
 * copy of its tags), `active_to` `null` when left out.
 * @example
 * ```ts
 * toStoredUser({ end_user: 'u-1', tags: {}, active_from: '2026-01-01' }).active_to; // null
 * ```
 */
export function toStoredUser(user: UserRecord): StoredUser {
  const stored: Record<string, unknown> = {};
  for (const name of Object.keys(userRecordSchema.shape)) stored[name] = user[name as keyof UserRecord];
  return { ...stored, tags: { ...user.tags }, active_to: user.active_to ?? null } as StoredUser;
}

/** One stored interaction, from either ingestion endpoint, in one shape. */
export interface StoredInteraction {
  /** Assigned by the reference, unique in the store: `interaction-1`, `interaction-2`, …. */
  id: string;
  /** Which endpoint it came from: the single-interaction (v3) or the bulk conversation (v2) one. */
  source: 'interaction' | 'conversation';
  /**
   * The `conversation_id` sent with a single interaction. The bulk form has none on the
   * wire, so the reference assigns one per request (`conversation-1`, …), shared by the
   * interactions of that conversation.
   */
  conversation_id: string;
  /** The end user: `interaction.end_user`, or `conversation.end_user` for the bulk form. */
  end_user: string;
  /** The user's input, as sent. */
  input: string;
  /** The answer shown to the user, as sent. */
  output: string;
  /** ISO 8601, as sent; what `time_range` is compared with. */
  time_start: string;
  /** ISO 8601, as sent. */
  time_end: string;
  /** `{}` when none were sent. */
  tags: Record<string, string>;
  /** The trace steps (`traces` of the single form, `trace` of the bulk form); `[]` when none. */
  trace: TraceStep[];
  /** The feedback (`user_feedback` of the single form, `feedback_actions` of the bulk form); `[]` when none. */
  feedback_actions: ConversationFeedbackAction[];
  /** As sent; `false` when left out (the service's default). The reference stores content either way. */
  hide_content: boolean;
  /** As sent; `true` when left out (the service's default), and always for the bulk form, which has no such field. */
  anonymize: boolean;
  /** When the reference received it, ISO 8601. */
  received_at: string;
}
