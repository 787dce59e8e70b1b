import { zodChecks } from './zod-checks-now.js';
import type { FeedbackAction } from '../schemas/index.js';

/**
 * A feedback action of an end user on an answer: `thumbs_up`, `comment`, `rating`, ….
 * `value` is only used with `rating` and must then be an integer, so the result fits
 * both the single-interaction form (`user_feedback`) and the conversation form
 * (`feedback_actions`).
 *
 * @throws ValidationError listing every problem by path (`slug`, `value`).
 *
 * @example
 * ```ts
 * const rating = feedbackAction({ slug: 'rating', value: 4 });
 * const comment = feedbackAction({ slug: 'comment', text: 'Spot on, thanks' });
 * ```
 */
export function feedbackAction(action: FeedbackAction): FeedbackAction {
  const { parseOrThrow, schemas } = zodChecks();
  return parseOrThrow(schemas.feedbackActionSchema, action, 'feedback action');
}
