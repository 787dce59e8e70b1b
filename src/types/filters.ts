import type { TimestampInput } from './common.js';

/**
 * What an interaction filter matches on.
 *
 * @example
 * ```ts
 * const kind: InteractionFilterKind = 'keyword';
 * ```
 */
export type InteractionFilterKind =
  | 'user_intent'
  | 'negative_user_intent'
  | 'keyword'
  | 'user_feedback'
  | 'tag'
  | 'type_of_problem'
  | 'topic'
  | 'user'
  | 'user_query';

/**
 * One filter of `interactions.delete`. Filters are AND'd; the values of one filter are
 * OR'd.
 *
 * @example
 * ```ts
 * const byUser: InteractionFilter = { kind: 'user', values: [endUserHash] };
 * const byTag: InteractionFilter = { kind: 'tag', tag: 'country', values: ['IT', 'FR'] };
 * ```
 */
export interface InteractionFilter {
  /** What the filter matches on. */
  kind: InteractionFilterKind;
  /**
   * With `kind: 'tag'` only, and then required: the tag's name, the key used in `tags`
   * when the interaction was sent.
   */
  tag?: string | undefined;
  /** The values to match, at least one; any of them matches. */
  values: string[];
}

/**
 * A time window, as accepted: `start` inclusive, `end` exclusive; either may be left out.
 *
 * @example
 * ```ts
 * const lastWeek: TimeRangeInput = { start: new Date(Date.now() - 7 * 86_400_000) };
 * ```
 */
export interface TimeRangeInput {
  /** The first moment in the window. */
  start?: TimestampInput | undefined;
  /** The first moment after the window; not before `start`. */
  end?: TimestampInput | undefined;
}

/**
 * Parameters of `interactions.delete`. **With no filter, every interaction of the project
 * (within `time_range`, if given) is deleted.**
 *
 * @example
 * ```ts
 * await nebuly.interactions.delete({
 *   filters: [{ kind: 'keyword', values: ['passport'] }],
 *   time_range: { start: '2026-01-01T00:00:00Z' },
 * });
 * ```
 */
export interface DeleteInteractionsParams {
  /** The filters an interaction must all match to be deleted. */
  filters?: InteractionFilter[] | undefined;
  /** Only interactions that started in this window. */
  time_range?: TimeRangeInput | undefined;
}

/**
 * The body `interactions.delete` sends: `filters` always present, times in UTC.
 *
 * @example
 * ```ts
 * const body: DeleteInteractionsBody = { filters: [], time_range: { start: '2026-01-01T00:00:00.000Z' } };
 * ```
 */
export interface DeleteInteractionsBody {
  /** The filters, `[]` when none was given. */
  filters: InteractionFilter[];
  /** The window, ISO 8601 in UTC. */
  time_range?: { start?: string | undefined; end?: string | undefined } | undefined;
}
