/**
 * What both checks of an ended interaction share (`payload.ts`, which accepts the usual
 * valid one without zod, and `payload-issues.ts`, which finds what is wrong with the
 * others): its result, the conversation's tags merged under its own, and its wire form.
 */
import { withoutMedia, withoutMediaText } from '../core/media.js';
import type { ConversationInteraction } from '../schemas/index.js';
import type { Issue } from '../utils/issues.js';

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

/** The caller's part of an interaction once checked: what the wire schema outputs for it. */
export interface CheckedPart {
  input: string;
  output: string;
  tags?: Record<string, string> | undefined;
  feature_flag?: string[] | undefined;
  feedback_actions?: ConversationInteraction['feedback_actions'];
  trace?: ConversationInteraction['trace'];
}

/**
 * `{ ...base, ...over }` by assignment into a fresh literal: objects made by spreading
 * each got a hidden class of their own (~300 heap bytes an interaction kept in the store,
 * `npm run bench`'s heapBytesPerJsonByte); assigned ones share theirs.
 */
function merge(base: Readonly<Record<string, string>>, over: Readonly<Record<string, string>>): Record<string, string> {
  const merged: Record<string, string> = {};
  assign(merged, base);
  assign(merged, over);
  return merged;
}

/** Copies `source`'s own enumerable string keys into `target` (no list of them made). */
function assign(target: Record<string, string>, source: Readonly<Record<string, string>>): void {
  for (const key in source) {
    if (!Object.prototype.hasOwnProperty.call(source, key)) continue;
    const value = source[key] as string;
    // An own `__proto__` tag stays a tag, as spreading keeps it.
    if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    else target[key] = value;
  }
}

/** Whether `tags` has no own enumerable key. */
function isEmpty(tags: Readonly<Record<string, string>>): boolean {
  for (const key in tags) if (Object.prototype.hasOwnProperty.call(tags, key)) return false;
  return true;
}

/** The conversation's tags under the interaction's own; `undefined` when there are none. */
function mergedTags(
  conversationTags: ConversationTags,
  own: Record<string, string> | undefined,
  excluded: ReadonlySet<string> | undefined,
): Record<string, string> | undefined {
  let tags = own === undefined ? conversationTags : conversationTags === undefined ? own : merge(conversationTags, own);
  if (tags !== undefined && excluded !== undefined && excluded.size > 0) {
    const kept: Record<string, string> = { ...tags };
    for (const key of excluded) delete kept[key];
    tags = kept;
  }
  // "Tags when there are any": an empty object says nothing, so it is left out.
  return tags === undefined || isEmpty(tags) ? undefined : tags;
}

/**
 * One interaction on the wire, in the schema's key order: the checked part without its
 * media (`core/media.ts`), the timestamps, the conversation's tags under its own (less
 * `excludedTags`), the feature flags when given, optional lists as empty ones.
 *
 * @example
 * ```ts
 * const wire = wireOf(part, { start: '2026-01-01T00:00:00.000Z', end: '2026-01-01T00:00:01.000Z' }, { plan: 'pro' });
 * ```
 */
export function wireOf(
  part: CheckedPart,
  times: { start: string; end: string },
  conversationTags: ConversationTags,
  excludedTags?: ReadonlySet<string>,
): ConversationInteraction {
  // No media leaves the process: base64 images, audio and documents become placeholders.
  const input = withoutMediaText(part.input);
  const output = withoutMediaText(part.output);
  const { start: time_start, end: time_end } = times;
  const feedback_actions = part.feedback_actions ?? [];
  const trace = part.trace === undefined ? [] : withoutMedia(part.trace);
  const tags = mergedTags(conversationTags, part.tags, excludedTags);
  const { feature_flag } = part;
  // Whole literals, not fields added one by one: the store keeps every interaction, and
  // added fields cost a property array each (~40 heap bytes).
  if (feature_flag !== undefined) {
    return tags === undefined
      ? { input, output, time_start, time_end, feature_flag, feedback_actions, trace }
      : { input, output, time_start, time_end, tags, feature_flag, feedback_actions, trace };
  }
  return tags === undefined
    ? { input, output, time_start, time_end, feedback_actions, trace }
    : { input, output, time_start, time_end, tags, feedback_actions, trace };
}
