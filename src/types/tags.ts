import type { TimestampInput } from './common.js';

/**
 * What finds the interaction that tags are added to, as accepted.
 *
 * @example
 * ```ts
 * const metadata: TagsMetadataInput = { end_user: endUser, time_start: '2026-03-01T10:00:00Z', input: 'Hi', output: 'Hello!' };
 * ```
 */
export interface TagsMetadataInput {
  /** The interaction's end user, as it was sent. */
  end_user: string;
  /** The interaction's `time_start`, as it was sent. */
  time_start: TimestampInput;
  /** Its input; without input and output, the service decides by time and end user alone. */
  input?: string | undefined;
  /** Its output. */
  output?: string | undefined;
}

/**
 * Parameters of `nebuly.interactions.addTags`: tags added to a stored interaction; those
 * of the same name are replaced, the others are left as they are.
 *
 * @example
 * ```ts
 * const params: AddTagsParams = { tags: { ticket: 'resolved' }, metadata: { end_user, time_start } };
 * ```
 */
export interface AddTagsParams {
  /** The tags to add or replace. */
  tags: Record<string, string>;
  /** Which interaction. */
  metadata: TagsMetadataInput;
}

/**
 * The body `interactions.addTags` sends: {@link AddTagsParams} validated, `time_start` in UTC.
 *
 * @example
 * ```ts
 * const body: AddTagsBody = { tags: { csat: '5' }, metadata: { end_user: 'u', time_start: '2026-03-01T10:00:00.000Z' } };
 * ```
 */
export interface AddTagsBody {
  /** The tags, as sent. */
  tags: Record<string, string>;
  /** Which interaction, `time_start` in UTC. */
  metadata: Omit<TagsMetadataInput, 'time_start'> & { time_start: string };
}
