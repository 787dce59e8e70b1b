/** What the reference server stores: users and interactions, in the shapes it returns. */
import type { ConversationFeedbackAction, FeedbackMetadata, TraceStep, UserRecord } from '../schemas/index.js';
import { userRecordSchema } from '../schemas/users.js';

/**
 * A user as the reference stores and returns it (EligibleUser / PlatformUser): the record as sent.
 * @example
 * ```ts
 * const user: StoredUser = { end_user: 'u-1', tags: {}, active_from: '2026-01-01', active_to: null };
 * ```
 */
export interface StoredUser extends Omit<UserRecord, 'active_to'> {
  /** `null` while access has not been revoked, as a FastAPI service returns a missing value. */
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
  /** `{}` when none were sent; tags added later (`interactions.addTags`) merged in. */
  tags: Record<string, string>;
  /** The A/B feature flags, as sent; absent when none were. */
  feature_flag?: string[];
  /** The trace steps (`traces` of the single form, `trace` of the bulk form); `[]` when none. */
  trace: TraceStep[];
  /** The feedback (`user_feedback` of the single form, `feedback_actions` of the bulk form); `[]` when none. */
  feedback_actions: ConversationFeedbackAction[];
  /** As sent; `false` when left out (the service's default). The reference stores content either way. */
  hide_content: boolean;
  /** As sent; `true` when left out (the service's default), and always for the bulk form, which has no such field. */
  anonymize: boolean;
  /** The `Idempotency-Key` of the request that stored it; `null` when it had none. */
  idempotency_key: string | null;
  /** When the reference received it, ISO 8601. */
  received_at: string;
}

/**
 * A feedback sent after the fact (`interactions.sendFeedback`), as stored: linked to the
 * interaction it was found to be about.
 * @example
 * ```ts
 * const [feedback] = server.store.listFeedback('dev-project');
 * feedback?.interaction_id; // 'interaction-3'
 * ```
 */
export interface StoredFeedback extends FeedbackMetadata {
  /** Assigned by the reference: `feedback-1`, `feedback-2`, …. */
  id: string;
  /** The stored interaction it is about (same `end_user`, `input`, `output`; ended before `timestamp`). */
  interaction_id: string;
  /** The action, as sent (under `action`, or `feedback` as one page of the service's docs names it). */
  action: ConversationFeedbackAction;
  /** As sent; `true` when left out (the service's default). */
  anonymize: boolean;
  /** The `Idempotency-Key` of the request that stored it; `null` when it had none. */
  idempotency_key: string | null;
  /** When the reference received it, ISO 8601. */
  received_at: string;
}

/**
 * The interactions of one conversation, as `listConversations` and
 * `GET /_reference/conversations` return them.
 * @example
 * ```ts
 * const [first] = server.store.listConversations('dev-project');
 * first?.interactions.map((interaction) => interaction.input);
 * ```
 */
export interface StoredConversation {
  /** The `conversation_id` sent (single form) or assigned (bulk form). */
  conversation_id: string;
  /** The end user of its first interaction. */
  end_user: string;
  /** Its interactions, in the order received. */
  interactions: StoredInteraction[];
  /** Feedback sent later about its interactions, in the order received. */
  feedback: StoredFeedback[];
}

/**
 * Something the reference just stored, as `onStored` gets it.
 * @example
 * ```ts
 * const onStored = (record: StoredRecord) => console.log(record.type, record.type === 'interaction' ? record.interaction.input : record.feedback.action.slug);
 * ```
 */
export type StoredRecord =
  | { type: 'interaction'; interaction: StoredInteraction }
  | { type: 'feedback'; feedback: StoredFeedback };
