/**
 * The kind of a feedback action.
 *
 * @example
 * ```ts
 * const slug: FeedbackSlug = 'thumbs_up';
 * ```
 */
export type FeedbackSlug =
  | 'thumbs_up'
  | 'thumbs_down'
  | 'copy_input'
  | 'copy_output'
  | 'paste'
  | 'comment'
  | 'regenerate'
  | 'edit'
  | 'rating';

/**
 * A feedback action of the single-interaction form (`user_feedback`), as accepted and as
 * sent.
 *
 * @example
 * ```ts
 * const feedback: FeedbackAction[] = [{ slug: 'rating', value: 4 }, { slug: 'comment', text: 'Quick answer' }];
 * ```
 */
export interface FeedbackAction {
  /** The kind of action the user took. */
  slug: FeedbackSlug;
  /** Text the user gave with the action. */
  text?: string | undefined;
  /** A numerical score, a whole number here; only with `slug: 'rating'`. */
  value?: number | undefined;
}

/**
 * A feedback action of the bulk conversation form (`feedback_actions`): as
 * {@link FeedbackAction}, but `value` may be any number.
 *
 * @example
 * ```ts
 * const feedback: ConversationFeedbackAction = { slug: 'rating', value: 4.5 };
 * ```
 */
export interface ConversationFeedbackAction {
  /** The kind of action the user took. */
  slug: FeedbackSlug;
  /** Text the user gave with the action. */
  text?: string | undefined;
  /** A numerical score; only with `slug: 'rating'`. */
  value?: number | undefined;
}
