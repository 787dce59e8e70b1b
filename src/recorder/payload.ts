import { sendConversationParamsSchema } from '../schemas/conversations.js';
import type { SendConversationBody } from '../schemas/index.js';
import type { Issue } from '../schemas/issues.js';
import { safeParseInput } from '../core/validate.js';
import { isPlainObject } from './plain-object.js';
import type { ConversationRecord, InteractionRecord } from './record.js';

/** The wire body of a conversation, and the problems of what had to be left out. */
export interface ConversationPayload {
  /** What to send; `undefined` when nothing recorded was valid. */
  body: SendConversationBody | undefined;
  /** Every problem found, by its path in the conversation (`interactions[0].trace[1].messages[0].role`). */
  issues: Issue[];
}

/** What to leave out, by recorded position. */
interface Exclusions {
  interactions: Set<number>;
  steps: Map<number, Set<number>>;
  feedback: Map<number, Set<number>>;
  tags: Map<number, Set<string>>;
  /** Interactions whose own tags are not an object of strings at all: the conversation's apply. */
  ownTags: Set<number>;
}

function isoTime(ms: number): string {
  // A clock that returns NaN or a time out of Date's range must not throw here; the
  // schema then reports the timestamp like any other bad value.
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

function mergedTags(conversationTags: ConversationRecord['tags'], own: unknown, excluded: Set<string> | undefined): unknown {
  // Own tags that are no plain object (a string, an array, a Map…) are not merged, which
  // would spread them into something valid-looking: they go as they are, validation
  // reports them at `interactions[i].tags`, and the second pass applies the conversation's.
  if (own !== undefined && !isPlainObject(own)) return own;
  let tags: unknown = own === undefined ? conversationTags : conversationTags === undefined ? own : { ...conversationTags, ...own };
  if (excluded !== undefined && typeof tags === 'object' && tags !== null) {
    const kept: Record<string, unknown> = { ...tags };
    for (const key of excluded) delete kept[key];
    tags = kept;
  }
  // "Tags when there are any": an empty object says nothing, so it is left out.
  if (typeof tags === 'object' && tags !== null && Object.keys(tags).length === 0) return undefined;
  return tags;
}

function keep<T>(items: readonly T[], excluded: Set<number> | undefined): T[] {
  return excluded === undefined ? (items as T[]) : items.filter((_, index) => !excluded.has(index));
}

function wireInteraction(
  record: InteractionRecord,
  index: number,
  conversationTags: ConversationRecord['tags'],
  exclusions: Exclusions | undefined,
): Record<string, unknown> {
  const own = exclusions?.ownTags.has(index) === true ? undefined : record.tags;
  const tags = mergedTags(conversationTags, own, exclusions?.tags.get(index));
  // Key order is the schema's, whatever it is here: what is sent is the schema's output.
  const wire: Record<string, unknown> = {
    input: record.input,
    output: record.output,
    time_start: isoTime(record.timeStart),
    time_end: isoTime(record.timeEnd),
    trace: keep(record.trace, exclusions?.steps.get(index)),
    feedback_actions: keep(record.feedback ?? [], exclusions?.feedback.get(index)),
  };
  if (tags !== undefined) wire.tags = tags;
  return wire;
}

function candidate(record: ConversationRecord, exclusions?: Exclusions) {
  const interactions: Record<string, unknown>[] = [];
  record.interactions.forEach((interaction, index) => {
    if (exclusions?.interactions.has(index) !== true) {
      interactions.push(wireInteraction(interaction, index, record.tags, exclusions));
    }
  });
  return { conversation: { end_user: record.endUser, interactions } };
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}

/**
 * The smallest parts that hold the problems: a bad step, feedback action or tag is left
 * out alone (tags that are no object at all: the turn's own, leaving the conversation's); a bad input, output or timestamp takes its interaction with it. `undefined`
 * when a problem is outside every interaction, so nothing can be kept.
 */
function exclusionsFor(issues: readonly Issue[]): Exclusions | undefined {
  const exclusions: Exclusions = {
    interactions: new Set(),
    steps: new Map(),
    feedback: new Map(),
    tags: new Map(),
    ownTags: new Set(),
  };
  for (const { path } of issues) {
    const [root, index, field, item] = path;
    if (root !== 'interactions' || typeof index !== 'number') return undefined;
    if (field === 'trace' && typeof item === 'number') addTo(exclusions.steps, index, item);
    else if (field === 'feedback_actions' && typeof item === 'number') addTo(exclusions.feedback, index, item);
    else if (field === 'tags' && typeof item === 'string') addTo(exclusions.tags, index, item);
    else if (field === 'tags' && item === undefined) exclusions.ownTags.add(index);
    else exclusions.interactions.add(index);
  }
  return exclusions;
}

/** How many times a conversation is validated at most, leaving out more each time. */
const MAX_PASSES = 4;

function validate(value: unknown): { body: SendConversationBody } | { issues: Issue[] } {
  const result = safeParseInput(sendConversationParamsSchema, value);
  if (result.success) return { body: result.data };
  // Paths are reported from the conversation down (`interactions[0]…`), the way the
  // caller recorded it; the `conversation` wrapper is the SDK's business.
  const issues = result.issues.map((issue) =>
    issue.path[0] === 'conversation' ? { ...issue, path: issue.path.slice(1) } : issue,
  );
  return { issues };
}

/**
 * Builds and validates the wire body of an ended conversation: conversation tags merged
 * under each turn's own, timestamps as ISO 8601, optional fields left out. What is invalid
 * is left out piece by piece, so one bad step does not cost the whole conversation; the
 * issues say what and where, by recorded position.
 */
export function buildConversationPayload(record: ConversationRecord): ConversationPayload {
  const first = validate(candidate(record));
  if ('body' in first) return { body: first.body, issues: [] };

  // Usually the second pass validates. A value that throws when read (a getter, a
  // Proxy) stops validation where it is, hiding what comes after: each further pass
  // leaves out what the ones before found, until the rest validates.
  let found = first.issues;
  for (let pass = 1; pass < MAX_PASSES; pass += 1) {
    const exclusions = exclusionsFor(found);
    if (exclusions === undefined) return { body: undefined, issues: found };
    const next = validate(candidate(record, exclusions));
    if ('body' in next) {
      const body = next.body.conversation.interactions.length === 0 ? undefined : next.body;
      return { body, issues: found };
    }
    found = [...found, ...next.issues];
  }
  return { body: undefined, issues: found };
}
