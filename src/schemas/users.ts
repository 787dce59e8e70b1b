import * as z from 'zod/mini';
import { nonEmptyString, tags, userTimestamp } from './common.js';
import { capIssues } from './issues.js';

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
});

/** Body of insert and update, for eligible and platform users alike. */
export const usersParamsSchema = z.object({
  users: z.array(userRecordSchema).check(capIssues),
});

/** Body of `nebuly.eligibleUsers.delete`: the `end_user` ids to delete. */
export const deleteUsersParamsSchema = z.object({
  users: z.array(nonEmptyString).check(capIssues),
});

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
