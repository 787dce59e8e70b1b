import type {
  AddTagsBody,
  ExportedInteraction,
  InteractionDetail,
  InteractionFilter,
  InteractionsPage,
  SendConversationBody,
  SendFeedbackBody,
  SendInteractionBody,
  UserRecord,
} from '../schemas/index.js';
import { type Experiments, variantsOf } from './experiments.js';
import { linkFeedback, type UnlinkedFeedback } from './feedback-link.js';
import { matchesAll, type TimeRange } from './matching.js';
import { byTimeStart, detailOf, exportedOf, summaryOf } from './reading.js';
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
  readonly #experiments: Experiments;
  readonly #starts = new WeakMap<StoredInteraction, number>();

  /**
   * @param now The clock of `received_at`.
   * @param onStored Told of each interaction and feedback once stored, with a copy.
   * @param experiments The A/B experiments `/variants` answers from.
   */
  constructor(now: () => Date = () => new Date(), onStored?: (record: StoredRecord) => void, experiments: Experiments = {}) {
    this.#now = now;
    this.#onStored = onStored;
    this.#experiments = experiments;
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
      ...(interaction.feature_flag === undefined ? {} : { feature_flag: interaction.feature_flag }),
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
          ...(interaction.feature_flag === undefined ? {} : { feature_flag: interaction.feature_flag }),
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

  /**
   * One page of the project's interactions that match every filter and whose
   * `time_start` is in `range`, ordered by `time_start` (then as received), with how many
   * match in all.
   */
  listInteractionsPage(
    projectId: string,
    filters: readonly InteractionFilter[],
    range: TimeRange,
    limit: number,
    offset: number,
  ): InteractionsPage {
    const project = this.#projects.get(projectId);
    const matching = (project?.interactions ?? []).filter((interaction) => matchesAll(interaction, filters, range)).sort(byTimeStart);
    const slugs = this.#slugsOf(project);
    const data = matching.slice(offset, offset + limit).map((interaction) => summaryOf(interaction, slugs(interaction)));
    return { total: matching.length, offset, limit, data };
  }

  /** `Date.parse(interaction.time_start)`, parsed once per stored interaction: an export scans them all for each window. */
  #startOf(interaction: StoredInteraction): number {
    let time = this.#starts.get(interaction);
    if (time === undefined) {
      time = Date.parse(interaction.time_start);
      this.#starts.set(interaction, time);
    }
    return time;
  }

  /** The project's interactions whose `time_start` is in `range` (`start` included, `end` excluded), in the export's form, ordered by `time_start`. */
  exportInteractions(projectId: string, range: { start: string; end: string }): ExportedInteraction[] {
    const project = this.#projects.get(projectId);
    if (project === undefined) return [];
    const [start, end] = [Date.parse(range.start), Date.parse(range.end)];
    const matching = project.interactions.filter((interaction) => {
      const time = this.#startOf(interaction);
      return time >= start && time < end;
    });
    matching.sort((a, b) => this.#startOf(a) - this.#startOf(b));
    // The conversations of those alone, in time order, for their history: one pass over the project.
    const wanted = new Set(matching.map((interaction) => interaction.conversation_id));
    const conversations = new Map<string, StoredInteraction[]>();
    for (const interaction of project.interactions) {
      if (!wanted.has(interaction.conversation_id)) continue;
      let turns = conversations.get(interaction.conversation_id);
      if (turns === undefined) conversations.set(interaction.conversation_id, (turns = []));
      turns.push(interaction);
    }
    for (const turns of conversations.values()) turns.sort((a, b) => this.#startOf(a) - this.#startOf(b));
    const slugs = this.#slugsOf(project);
    return matching.map((interaction) => {
      const turns = conversations.get(interaction.conversation_id) ?? [];
      return exportedOf(interaction, turns.slice(0, turns.indexOf(interaction)), slugs(interaction));
    });
  }

  /** The detail of the project's interaction `interactionId`; `undefined` when it has none of that id. */
  interactionDetail(projectId: string, interactionId: string): InteractionDetail | undefined {
    const project = this.#projects.get(projectId);
    const interaction = project?.interactions.find((stored) => stored.id === interactionId);
    if (project === undefined || interaction === undefined) return undefined;
    const conversation = project.interactions.filter((stored) => stored.conversation_id === interaction.conversation_id).sort(byTimeStart);
    return detailOf(conversation, conversation.indexOf(interaction), this.#slugsOf(project)(interaction));
  }

  /** The feedback slugs of each interaction of a project: those sent with it, then those sent later. */
  #slugsOf(project: Project | undefined): (interaction: StoredInteraction) => string[] {
    const late = new Map<string, string[]>();
    for (const feedback of project?.feedback ?? []) {
      const slugs = late.get(feedback.interaction_id) ?? [];
      slugs.push(feedback.action.slug);
      late.set(feedback.interaction_id, slugs);
    }
    return (interaction) => [...interaction.feedback_actions.map((action) => action.slug), ...(late.get(interaction.id) ?? [])];
  }

  /**
   * Adds tags to the project's interactions of `metadata.end_user` that started at
   * `metadata.time_start` (and, when given, have its input and output): tags of the same
   * name are replaced, the others kept.
   * @returns how many interactions were tagged; 0 when none matched, and nothing changed.
   */
  addTags(projectId: string, body: AddTagsBody): number {
    const { metadata } = body;
    const start = Date.parse(metadata.time_start);
    let tagged = 0;
    for (const interaction of this.#projects.get(projectId)?.interactions ?? []) {
      if (interaction.end_user !== metadata.end_user || Date.parse(interaction.time_start) !== start) continue;
      if (metadata.input !== undefined && interaction.input !== metadata.input) continue;
      if (metadata.output !== undefined && interaction.output !== metadata.output) continue;
      interaction.tags = { ...interaction.tags, ...body.tags };
      tagged += 1;
    }
    return tagged;
  }

  /** The variants `user` is in for `flags`, from the configured experiments (`ReferenceOptions.experiments`). */
  variants(user: string, flags: readonly string[]): ReturnType<typeof variantsOf> {
    return variantsOf(this.#experiments, user, flags);
  }

  /** Forgets everything of one project, or of every project. */
  clear(projectId?: string): void {
    if (projectId === undefined) this.#projects.clear();
    else this.#projects.delete(projectId);
  }
}
