/**
 * What is wrong with an ended interaction, found with zod and its schema: loaded by
 * `payload.ts` only for an interaction its own check did not accept, so that recording
 * valid data never loads zod.
 */
import * as z from 'zod/mini';
import { safeParseInput } from '../core/validate.js';
import { conversationInteractionSchema } from '../schemas/conversations.js';
import type { ConversationInteraction } from '../schemas/index.js';
import type { Issue } from '../utils/issues.js';
import { type ConversationTags, wireOf } from './interaction-parts.js';
import { isoTime } from './iso-time.js';
import { isPlainObject } from './plain-object.js';
import type { InteractionRecord } from './record.js';

/** What to leave out of one interaction, by recorded position. */
interface Exclusions {
  /** A bad input or output: the whole interaction. */
  all: boolean;
  steps: Set<number>;
  feedback: Set<number>;
  tags: Set<string>;
  /** Its own tags are not an object of strings at all: the conversation's apply. */
  ownTags: boolean;
  /** Its feature flags are not a list of names: left out, the rest is sent. */
  featureFlag: boolean;
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

function withoutExcluded<T>(items: readonly T[], excluded: Set<number> | undefined): T[] {
  return excluded === undefined || excluded.size === 0 ? (items as T[]) : items.filter((_, index) => !excluded.has(index));
}

/**
 * The smallest parts that hold the problems of one interaction: a bad step, feedback
 * action or tag, or bad feature flags, is left out alone (own tags that are no object at all: the whole of
 * them, leaving the conversation's); a bad input, output or timestamp takes the
 * interaction with it. Paths are relative to the interaction.
 */
function exclusionsFor(issues: readonly Issue[]): Exclusions {
  const exclusions: Exclusions = { all: false, steps: new Set(), feedback: new Set(), tags: new Set(), ownTags: false, featureFlag: false };
  for (const { path } of issues) {
    const [field, item] = path;
    if (field === 'trace' && typeof item === 'number') exclusions.steps.add(item);
    else if (field === 'feedback_actions' && typeof item === 'number') exclusions.feedback.add(item);
    else if (field === 'tags' && typeof item === 'string') exclusions.tags.add(item);
    else if (field === 'tags' && item === undefined) exclusions.ownTags = true;
    else if (field === 'feature_flag') exclusions.featureFlag = true;
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
    feature_flag: exclusions?.featureFlag === true ? undefined : record.featureFlag,
    feedback_actions: withoutExcluded(record.feedback ?? [], exclusions?.feedback),
    trace: withoutExcluded(record.trace, exclusions?.steps),
  };
}

/** How many times an interaction is validated at most, leaving out more each time. */
const MAX_PASSES = 4;

/**
 * One interaction on the wire, in the schema's key order, or `undefined` when what is
 * left of it is not valid; the problems found go to `issues`. What is invalid is left out
 * piece by piece, so one bad step does not cost the whole interaction; the issues say
 * what and where.
 *
 * @example
 * ```ts
 * const issues: Issue[] = [];
 * const interaction = wireInteraction(record, { plan: 'pro' }, issues);
 * ```
 */
export function wireInteraction(
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
      return wireOf(result.data, { start: timeStart as string, end: timeEnd as string }, conversationTags, exclusions?.tags);
    }
    found.push(...result.issues);
  }
  issues.push(...found);
  return undefined;
}
