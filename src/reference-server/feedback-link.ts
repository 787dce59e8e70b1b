import type { FeedbackMetadata } from '../schemas/index.js';
import type { StoredInteraction } from './stored.js';

/**
 * Why a late feedback could not be linked to a stored interaction: what
 * `ReferenceStore.addFeedback` gives instead of the feedback it stored.
 *
 * @example
 * ```ts
 * const added = store.addFeedback('project', { action, metadata });
 * if ('reason' in added) console.log(added.reason); // 'no_interaction' | 'not_after_time_end'
 * ```
 */
export type UnlinkedFeedback =
  /** No stored interaction has its `end_user`, `input` and `output`. */
  | { reason: 'no_interaction' }
  /** Some have, but none ended before its `timestamp`; `latestTimeEnd` is the latest of them. */
  | { reason: 'not_after_time_end'; latestTimeEnd: string };

/**
 * The stored interaction a late feedback is about: among those with its `end_user`,
 * `input` and `output`, the one that ended last before the feedback's `timestamp` (the
 * same question asked twice gets its feedback on the latest answer the user had seen).
 *
 * @example
 * ```ts
 * const found = linkFeedback(store.listInteractions('p'), metadata);
 * if ('id' in found) console.log(found.id);
 * ```
 */
export function linkFeedback(
  interactions: readonly StoredInteraction[],
  metadata: FeedbackMetadata,
): StoredInteraction | UnlinkedFeedback {
  const given = Date.parse(metadata.timestamp);
  let best: StoredInteraction | undefined;
  let latestTimeEnd: string | undefined;
  for (const interaction of interactions) {
    if (interaction.end_user !== metadata.end_user) continue;
    if (interaction.input !== metadata.input || interaction.output !== metadata.output) continue;
    const ended = Date.parse(interaction.time_end);
    if (latestTimeEnd === undefined || ended > Date.parse(latestTimeEnd)) latestTimeEnd = interaction.time_end;
    if (ended < given && (best === undefined || ended >= Date.parse(best.time_end))) best = interaction;
  }
  if (best !== undefined) return best;
  return latestTimeEnd === undefined ? { reason: 'no_interaction' } : { reason: 'not_after_time_end', latestTimeEnd };
}
