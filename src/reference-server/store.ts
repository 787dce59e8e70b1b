import type {
  InteractionFilter,
  SendConversationBody,
  SendFeedbackBody,
  SendInteractionBody,
  UserRecord,
} from '../schemas/index.js';
import { linkFeedback, type UnlinkedFeedback } from './feedback-link.js';
import { matchesAll, type TimeRange } from './matching.js';
import {
  type StoredConversation,
  type StoredFeedback,
  type StoredInteraction,
  type StoredRecord,
  type StoredUser,
  toStoredUser,
} from './stored.js';

/** What a user deletion did. */
export interface DeleteUsersResult {
  /** The `end_user`s deleted. */
  deleted: string[];
  /** The `end_user`s that were not stored, ignored. */
  notFound: string[];
}

interface Project {
  users: Map<string, StoredUser>;
  interactions: StoredInteraction[];
  feedback: StoredFeedback[];
}


/**
 * The reference server's data: users and interactions, kept in memory per project.
 * Every method takes the project explicitly and touches nothing else, which is what
 * isolates projects from each other. Everything read out is a copy.
 *
 * Users are kept in insertion order; an update keeps a user's place, a deletion and a new
 * insert puts it last.
 *
 * @example
 * ```ts
 * const server = await createReferenceServer({ apiKeys: { 'key-a': 'project-a' } });
 * // … the code under test sends with key-a …
 * expect(server.store.listInteractions('project-a')).toHaveLength(2);
 * ```
 */
export class ReferenceStore {
  readonly #projects = new Map<string, Project>();
  #interactionCount = 0;
  #conversationCount = 0;
  #feedbackCount = 0;
  readonly #now: () => Date;
  readonly #onStored: ((record: StoredRecord) => void) | undefined;

  /**
   * @param now The clock of `received_at`.
   * @param onStored Told of each interaction and feedback once stored, with a copy.
   */
  constructor(now: () => Date = () => new Date(), onStored?: (record: StoredRecord) => void) {
    this.#now = now;
    this.#onStored = onStored;
  }

  #tell(record: StoredRecord): void {
    if (this.#onStored === undefined) return;
    try {
      this.#onStored(structuredClone(record));
    } catch (error) {
      console.error('reference server: onStored threw', error);
    }
  }

  #project(projectId: string): Project {
    let project = this.#projects.get(projectId);
    if (project === undefined) {
      project = { users: new Map(), interactions: [], feedback: [] };
      this.#projects.set(projectId, project);
    }
    return project;
  }

  /**
   * Inserts users, in order. A user whose `end_user` is already stored (or came earlier in
   * the same call) is skipped: left unchanged and not in the result.
   * @returns the users inserted.
   */
  insertUsers(projectId: string, users: readonly UserRecord[]): StoredUser[] {
    const stored = this.#project(projectId).users;
    const inserted: StoredUser[] = [];
    for (const user of users) {
      if (stored.has(user.end_user)) continue;
      const record = toStoredUser(user);
      stored.set(record.end_user, record);
      inserted.push(structuredClone(record));
    }
    return inserted;
  }

  /**
   * Replaces the tags and access period of stored users matched by `end_user`, in order.
   * A user not stored is skipped: not created and not in the result.
   * @returns the users updated, as stored after the update.
   */
  updateUsers(projectId: string, users: readonly UserRecord[]): StoredUser[] {
    const stored = this.#project(projectId).users;
    const updated: StoredUser[] = [];
    for (const user of users) {
      if (!stored.has(user.end_user)) continue;
      const record = toStoredUser(user);
      stored.set(record.end_user, record);
      updated.push(structuredClone(record));
    }
    return updated;
  }

  /** Deletes users by `end_user`; ones not stored are ignored. */
  deleteUsers(projectId: string, endUsers: readonly string[]): DeleteUsersResult {
    const stored = this.#project(projectId).users;
    const result: DeleteUsersResult = { deleted: [], notFound: [] };
    for (const endUser of endUsers) {
      if (stored.delete(endUser)) result.deleted.push(endUser);
      else result.notFound.push(endUser);
    }
    return result;
  }

  /** The project's users, in insertion order, as copies. */
  listUsers(projectId: string): StoredUser[] {
    return structuredClone([...(this.#projects.get(projectId)?.users.values() ?? [])]);
  }

  /** Stores the interaction of a single-interaction request, with the request's `Idempotency-Key`. */
  addInteraction(projectId: string, body: SendInteractionBody, idempotencyKey: string | null = null): StoredInteraction {
    const { interaction } = body;
    const stored = this.#store(projectId, {
      source: 'interaction',
      conversation_id: interaction.conversation_id,
      end_user: interaction.end_user,
      input: interaction.input,
      output: interaction.output,
      time_start: interaction.time_start,
      time_end: interaction.time_end,
      tags: { ...interaction.tags },
      trace: body.traces,
      feedback_actions: body.user_feedback ?? [],
      hide_content: interaction.hide_content ?? false,
      anonymize: body.anonymize ?? true,
      idempotency_key: idempotencyKey,
    });
    return structuredClone(stored);
  }

  /** Stores the interactions of a bulk conversation request, under one assigned `conversation_id`. */
  addConversation(projectId: string, body: SendConversationBody, idempotencyKey: string | null = null): StoredInteraction[] {
    this.#conversationCount += 1;
    const conversationId = `conversation-${this.#conversationCount}`;
    const { end_user, interactions } = body.conversation;
    return interactions.map((interaction) =>
      structuredClone(
        this.#store(projectId, {
          source: 'conversation',
          conversation_id: conversationId,
          end_user,
          input: interaction.input,
          output: interaction.output,
          time_start: interaction.time_start,
          time_end: interaction.time_end,
          tags: { ...interaction.tags },
          trace: interaction.trace ?? [],
          feedback_actions: interaction.feedback_actions ?? [],
          hide_content: false,
          anonymize: true,
          idempotency_key: idempotencyKey,
        }),
      ),
    );
  }

  #store(projectId: string, fields: Omit<StoredInteraction, 'id' | 'received_at'>): StoredInteraction {
    this.#interactionCount += 1;
    const stored: StoredInteraction = {
      id: `interaction-${this.#interactionCount}`,
      ...structuredClone(fields),
      received_at: this.#now().toISOString(),
    };
    this.#project(projectId).interactions.push(stored);
    this.#tell({ type: 'interaction', interaction: stored });
    return stored;
  }

  /**
   * Stores a feedback sent after the fact, linked to the stored interaction it is about
   * (see `linkFeedback`); when there is none, stores nothing and says why.
   */
  addFeedback(
    projectId: string,
    body: SendFeedbackBody,
    idempotencyKey: string | null = null,
  ): StoredFeedback | UnlinkedFeedback {
    const project = this.#project(projectId);
    const linked = linkFeedback(project.interactions, body.metadata);
    if (!('id' in linked)) return linked;
    this.#feedbackCount += 1;
    const stored: StoredFeedback = {
      id: `feedback-${this.#feedbackCount}`,
      interaction_id: linked.id,
      action: structuredClone(body.action),
      end_user: body.metadata.end_user,
      input: body.metadata.input,
      output: body.metadata.output,
      timestamp: body.metadata.timestamp,
      anonymize: body.metadata.anonymize ?? true,
      idempotency_key: idempotencyKey,
      received_at: this.#now().toISOString(),
    };
    project.feedback.push(stored);
    this.#tell({ type: 'feedback', feedback: stored });
    return structuredClone(stored);
  }

  /** The project's feedback sent after the fact, in the order received, as copies. */
  listFeedback(projectId: string): StoredFeedback[] {
    return structuredClone(this.#projects.get(projectId)?.feedback ?? []);
  }

  /**
   * The project's interactions grouped by `conversation_id`, each with the late feedback
   * on its interactions; conversations in the order their first interaction arrived.
   */
  listConversations(projectId: string): StoredConversation[] {
    const project = this.#projects.get(projectId);
    if (project === undefined) return [];
    const conversations = new Map<string, StoredConversation>();
    const byInteraction = new Map<string, StoredConversation>();
    for (const interaction of project.interactions) {
      let conversation = conversations.get(interaction.conversation_id);
      if (conversation === undefined) {
        conversation = { conversation_id: interaction.conversation_id, end_user: interaction.end_user, interactions: [], feedback: [] };
        conversations.set(interaction.conversation_id, conversation);
      }
      conversation.interactions.push(interaction);
      byInteraction.set(interaction.id, conversation);
    }
    for (const feedback of project.feedback) byInteraction.get(feedback.interaction_id)?.feedback.push(feedback);
    return structuredClone([...conversations.values()]);
  }

  /** The project's interactions, in the order received, as copies. */
  listInteractions(projectId: string): StoredInteraction[] {
    return structuredClone(this.#projects.get(projectId)?.interactions ?? []);
  }

  /**
   * Deletes the project's interactions that match every filter (the values of one filter
   * are OR'd) and whose `time_start` falls in `range`. No filter and no range: all of them.
   * @returns how many were deleted.
   */
  deleteInteractions(
    projectId: string,
    filters: readonly InteractionFilter[],
    range?: TimeRange,
  ): number {
    const project = this.#projects.get(projectId);
    if (project === undefined) return 0;
    const kept = project.interactions.filter((interaction) => !matchesAll(interaction, filters, range));
    const deleted = project.interactions.length - kept.length;
    project.interactions = kept;
    // Feedback goes with the interaction it is about.
    const keptIds = new Set(kept.map((interaction) => interaction.id));
    project.feedback = project.feedback.filter((feedback) => keptIds.has(feedback.interaction_id));
    return deleted;
  }

  /** Forgets everything of one project, or of every project. */
  clear(projectId?: string): void {
    if (projectId === undefined) this.#projects.clear();
    else this.#projects.delete(projectId);
  }
}
