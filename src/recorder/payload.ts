/**
 * An ended interaction checked and built into its wire form, off the caller's path (in
 * `storing.ts`'s slices). The usual valid one is accepted by `plain-interaction.ts`,
 * without zod; any other loads `payload-issues.ts` (zod and the schema) to find what is
 * wrong and leave out the least.
 */
import { type CheckedInteraction, type ConversationTags, wireOf } from './interaction-parts.js';
import { isoTime } from './iso-time.js';
import { plainPart } from './plain-interaction.js';
import { type InteractionRecord, UNFINISHED_STEP } from './record.js';
import type { Issue } from '../utils/issues.js';

export type { CheckedInteraction, ConversationTags } from './interaction-parts.js';

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
  // `id` by name: a recorded interaction's id is a getter (record.ts), which a spread leaves out.
  return { record: { ...record, id: record.id, trace }, positions };
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

/** The zod path, loaded once, at the first interaction that needs it. */
let describing: Promise<typeof import('./payload-issues.js')> | undefined;

/**
 * Builds and validates one ended interaction's wire form: the conversation's tags merged
 * under its own, timestamps as ISO 8601, optional fields left out. Only what the caller
 * recorded is validated, once. What is invalid is left out piece by piece, so one bad
 * step does not cost the whole interaction; the issues say what and where, by recorded
 * position. A place an integration kept for a step that never came
 * ({@link UNFINISHED_STEP}) is left out first, and counted. The result comes at once for
 * a valid interaction, and as a promise when zod has to be loaded to describe one.
 *
 * @example
 * ```ts
 * const { interaction, issues, unfinished } = await checkInteraction(record, { plan: 'pro' });
 * ```
 */
export function checkInteraction(recorded: InteractionRecord, conversationTags: ConversationTags): CheckedInteraction | Promise<CheckedInteraction> {
  const { record, positions } = withoutUnfinishedSteps(recorded);
  const unfinished = recorded.trace.length - record.trace.length;
  const start = isoTime(record.timeStart);
  const end = isoTime(record.timeEnd);
  const part = start === undefined || end === undefined ? undefined : plainPart(record);
  if (part !== undefined) return { interaction: wireOf(part, { start: start as string, end: end as string }, conversationTags), issues: [], unfinished };
  describing ??= import('./payload-issues.js');
  return describing.then(({ wireInteraction }) => {
    const issues: Issue[] = [];
    const interaction = wireInteraction(record, conversationTags, issues);
    if (positions !== undefined) atRecordedPositions(issues, positions);
    return { interaction, issues, unfinished };
  });
}
