import * as z from 'zod/mini';
import { nonEmptyString, tags, userTimestamp } from './common.js';
import { capIssues } from './issues.js';

/**
 * The access period is a period: `active_to`, when given, is not before `active_from`.
 * Dates and date-times compare as instants (a date is midnight UTC, as `Date.parse` reads
 * it). A check of its own so that the CLI's strict row schema applies it too.
 *
 * @example
 * ```ts
 * const rowSchema = z.strictObject(userRecordSchema.shape).check(accessPeriodCheck);
 * ```
 */
export const accessPeriodCheck = z.superRefine<{ active_from: string; active_to?: string | undefined }>((user, ctx) => {
  // Only a record whose fields are valid gets here with strings; else they were reported.
  if (typeof user.active_to !== 'string' || typeof user.active_from !== 'string') return;
  if (Date.parse(user.active_to) < Date.parse(user.active_from)) {
    ctx.issues.push({ code: 'custom', path: ['active_to'], message: 'must not be before `active_from`', input: user.active_to });
  }
});

/** A user record as sent: PlatformUser in requests, EligibleUser in responses. */
export const userRecordSchema = z.object({
  end_user: nonEmptyString,
  tags,
  active_from: userTimestamp,
  /** `null` (as the service may answer it) is taken as "not revoked" and left out. */
  active_to: z.optional(
    z.pipe(
      z.nullable(userTimestamp),
      z.transform((value) => value ?? undefined),
    ),
  ),
}).check(accessPeriodCheck);

/** The message for a list passed where the body `{ users: [...] }` was expected. */
const wrapTheList = (issue: { input?: unknown }) =>
  Array.isArray(issue.input) ? 'must be an object with the list as `users`: pass `{ users: [...] }`, not the list itself' : undefined;

/** Body of insert and update, for eligible and platform users alike. */
export const usersParamsSchema = z.object(
  {
    users: z.array(userRecordSchema).check(capIssues),
  },
  { error: wrapTheList },
);

/** Body of `nebuly.eligibleUsers.delete`: the `end_user` ids to delete. */
export const deleteUsersParamsSchema = z.object(
  {
    users: z.array(nonEmptyString).check(capIssues),
  },
  { error: wrapTheList },
);

/** A user record as the service answers it; fields the SDK does not know are kept. */
export const userRecordResponseSchema = z.looseObject({
  end_user: z.string(),
  tags: z.record(z.string(), z.unknown()),
  active_from: z.string(),
  active_to: z.optional(z.nullable(z.string())),
});

/** Answer of insert, update and list. */
export const usersResponseSchema = z.looseObject({
  users: z.array(userRecordResponseSchema).check(capIssues),
});
