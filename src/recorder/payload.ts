import * as z from 'zod/mini';
import { safeParseInput } from '../core/validate.js';
import { conversationInteractionSchema } from '../schemas/conversations.js';
import type { ConversationInteraction } from '../schemas/index.js';
import type { Issue } from '../utils/issues.js';
import { isPlainObject } from './plain-object.js';
import { type InteractionRecord, UNFINISHED_STEP } from './record.js';

/** One interaction on the wire, and the problems of what had to be left out. */
export interface CheckedInteraction {
  /** What to send; `undefined` when its input, output or timestamps were not valid. */
  interaction: ConversationInteraction | undefined;
  /** Every problem found, by its path in the interaction (`trace[1].messages[0].role`), steps at their recorded position. */
  issues: Issue[];
  /** How many places kept for steps were never filled (`step_unfinished`): left out. */
  unfinished: number;
}

/** A conversation's tags, merged under each interaction's own. */
export type ConversationTags = Readonly<Record<string, string>> | undefined;

/** What to leave out of one interaction, by recorded position. */
interface Exclusions {
  /** A bad input or output: the whole interaction. */
  all: boolean;
  steps: Set<number>;
  feedback: Set<number>;
  tags: Set<string>;
  /** Its own tags are not an object of strings at all: the conversation's apply. */
  ownTags: boolean;
}

/**
 * What of an interaction the caller gave and only the caller: input, output, its own
 * tags, steps and feedback. The timestamps come from the recorder's clock and the
 * conversation's `end_user` and tags were checked once at `startConversation`, so none
 * of them is validated again here. Built on the first conversation, not at import.
 */
const buildRecordedSchema = () => {
  // The wire schema's own fields less the two timestamps (z.omit would do the same and
  // weigh 350 bytes gzipped in a user's bundle).
  const { time_start, time_end, ...shape } = conversationInteractionSchema.shape;
  return z.object(shape);
};
let recordedSchema: ReturnType<typeof buildRecordedSchema> | undefined;
function recordedInteractionSchema() {
  recordedSchema ??= buildRecordedSchema();
  return recordedSchema;
}

/** `ms` as ISO 8601 UTC; `undefined` for a clock that gave NaN or a time out of Date's range. */
function isoTime(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function withoutExcluded<T>(items: readonly T[], excluded: Set<number> | undefined): T[] {
  return excluded === undefined || excluded.size === 0 ? (items as T[]) : items.filter((_, index) => !excluded.has(index));
}

/**
 * `{ ...base, ...over }` by assignment into a fresh literal: objects made by spreading
 * each got a hidden class of their own (~300 heap bytes an interaction kept in the store,
 * `npm run bench`'s heapBytesPerJsonByte); assigned ones share theirs.
 */
function merge(base: Record<string, string>, over: Record<string, string>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of [base, over]) {
    for (const key of Object.keys(source)) {
      const value = source[key] as string;
      // An own `__proto__` tag stays a tag, as spreading keeps it.
      if (key === '__proto__') Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
      else merged[key] = value;
    }
  }
  return merged;
}

/** The conversation's tags under the interaction's own; `undefined` when there are none. */
function mergedTags(
  conversationTags: ConversationTags,
  own: Record<string, string> | undefined,
  excluded: Set<string> | undefined,
): Record<string, string> | undefined {
  let tags = own === undefined ? conversationTags : conversationTags === undefined ? own : merge(conversationTags, own);
  if (tags !== undefined && excluded !== undefined && excluded.size > 0) {
    const kept: Record<string, string> = { ...tags };
    for (const key of excluded) delete kept[key];
    tags = kept;
  }
  // "Tags when there are any": an empty object says nothing, so it is left out.
  return tags === undefined || Object.keys(tags).length === 0 ? undefined : tags;
}

/**
 * The smallest parts that hold the problems of one interaction: a bad step, feedback
 * action or tag is left out alone (own tags that are no object at all: the whole of
 * them, leaving the conversation's); a bad input, output or timestamp takes the
 * interaction with it. Paths are relative to the interaction.
 */
function exclusionsFor(issues: readonly Issue[]): Exclusions {
  const exclusions: Exclusions = { all: false, steps: new Set(), feedback: new Set(), tags: new Set(), ownTags: false };
  for (const { path } of issues) {
    const [field, item] = path;
    if (field === 'trace' && typeof item === 'number') exclusions.steps.add(item);
    else if (field === 'feedback_actions' && typeof item === 'number') exclusions.feedback.add(item);
    else if (field === 'tags' && typeof item === 'string') exclusions.tags.add(item);
    else if (field === 'tags' && item === undefined) exclusions.ownTags = true;
    else exclusions.all = true;
  }
  return exclusions;
}

/** The caller's part of an interaction, less what `exclusions` leaves out. */
function callerPart(record: InteractionRecord, exclusions: Exclusions | undefined): Record<string, unknown> {
  // Own tags that are no plain object (a string, an array, a Map…) go as they are, so that
  // validation reports them at `tags`; merging would spread them into something valid-looking.
  const own = exclusions?.ownTags === true ? undefined : record.tags;
  let tags = own;
  if (isPlainObject(own) && exclusions !== undefined && exclusions.tags.size > 0) {
    const kept: Record<string, unknown> = { ...own };
    for (const key of exclusions.tags) delete kept[key];
    tags = kept;
  }
  return {
    input: record.input,
    output: record.output,
    tags,
    feedback_actions: withoutExcluded(record.feedback ?? [], exclusions?.feedback),
    trace: withoutExcluded(record.trace, exclusions?.steps),
  };
}

/** How many times an interaction is validated at most, leaving out more each time. */
const MAX_PASSES = 4;

/**
 * One interaction on the wire, in the schema's key order, or `undefined` when what is
 * left of it is not valid; the problems found go to `issues`.
 */
function wireInteraction(
  record: InteractionRecord,
  conversationTags: ConversationTags,
  issues: Issue[],
): ConversationInteraction | undefined {
  const timeStart = isoTime(record.timeStart);
  const timeEnd = isoTime(record.timeEnd);
  const found: Issue[] = [];
  for (const [field, time] of [['time_start', timeStart], ['time_end', timeEnd]] as const) {
    if (time === undefined) found.push({ path: [field], message: "is not a time: the recorder's clock gave none", code: 'invalid_type' });
  }

  // Usually the first pass validates, or the second, which leaves out what the first
  // found. A value that throws when read (a getter, a Proxy) stops validation where it
  // is, hiding what comes after: each further pass leaves out what the ones before found.
  let exclusions: Exclusions | undefined;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    if (found.length > 0) {
      exclusions = exclusionsFor(found);
      if (exclusions.all) break;
    }
    const result = safeParseInput(recordedInteractionSchema(), callerPart(record, exclusions));
    if (result.success) {
      issues.push(...found);
      const { input, output, tags: own } = result.data;
      const time_start = timeStart as string;
      const time_end = timeEnd as string;
      const feedback_actions = result.data.feedback_actions ?? [];
      const trace = result.data.trace ?? [];
      const tags = mergedTags(conversationTags, own, exclusions?.tags);
      // Whole literals, not fields added one by one: the store keeps every interaction, and
      // added fields cost a property array each (~40 heap bytes).
      return tags === undefined
        ? { input, output, time_start, time_end, feedback_actions, trace }
        : { input, output, time_start, time_end, tags, feedback_actions, trace };
    }
    found.push(...result.issues);
  }
  issues.push(...found);
  return undefined;
}

function isUnfinished(step: Record<string, unknown>): boolean {
  return UNFINISHED_STEP in step;
}

/**
 * The interaction without the places kept for steps that never came, and the recorded
 * position of each step left (`undefined` when none was left out: the record itself).
 */
function withoutUnfinishedSteps(record: InteractionRecord): { record: InteractionRecord; positions: number[] | undefined } {
  if (!record.trace.some(isUnfinished)) return { record, positions: undefined };
  const trace: Record<string, unknown>[] = [];
  const positions: number[] = [];
  record.trace.forEach((step, position) => {
    if (isUnfinished(step)) return;
    trace.push(step);
    positions.push(position);
  });
  return { record: { ...record, trace }, positions };
}

/** Issues found in an interaction without its unfinished steps, at the steps' recorded positions. */
function atRecordedPositions(issues: Issue[], positions: readonly number[]): void {
  for (let index = 0; index < issues.length; index += 1) {
    const issue = issues[index] as Issue;
    const [field, step] = issue.path;
    if (field === 'trace' && typeof step === 'number' && positions[step] !== undefined) {
      issues[index] = { ...issue, path: [field, positions[step], ...issue.path.slice(2)] };
    }
  }
}

/**
 * Builds and validates one ended interaction's wire form: the conversation's tags merged
 * under its own, timestamps as ISO 8601, optional fields left out. Only what the caller
 * recorded is validated, once. What is invalid is left out piece by piece, so one bad
 * step does not cost the whole interaction; the issues say what and where, by recorded
 * position. A place an integration kept for a step that never came
 * ({@link UNFINISHED_STEP}) is left out first, and counted.
 *
 * @example
 * ```ts
 * const { interaction, issues, unfinished } = checkInteraction(record, { plan: 'pro' });
 * ```
 */
export function checkInteraction(recorded: InteractionRecord, conversationTags: ConversationTags): CheckedInteraction {
  const issues: Issue[] = [];
  const { record, positions } = withoutUnfinishedSteps(recorded);
  const interaction = wireInteraction(record, conversationTags, issues);
  if (positions !== undefined) atRecordedPositions(issues, positions);
  return { interaction, issues, unfinished: recorded.trace.length - record.trace.length };
}
