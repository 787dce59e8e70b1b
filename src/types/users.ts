import type { Tags, TimestampInput } from './common.js';

/**
 * A user record (the spec's PlatformUser / EligibleUser), as accepted by insert and
 * update.
 *
 * @example
 * ```ts
 * const user: UserRecordInput = {
 *   end_user: await hashEndUser('alice@example.com'),
 *   tags: { department: 'sales', country: 'IT' },
 *   active_from: '2026-01-01',
 * };
 * ```
 */
export interface UserRecordInput {
  /** Identifies the user; update and delete match existing users by it. */
  end_user: string;
  /** Tags of the user, any number. */
  tags: Tags;
  /** When the user got access to the platform: a `Date`, an ISO 8601 date or date-time. */
  active_from: TimestampInput;
  /** When access was revoked; `null` (as the service may answer it) is taken as "not revoked". */
  active_to?: TimestampInput | null | undefined;
}

/**
 * A user record as sent: a `Date` as ISO 8601, a string as given, `active_to: null` left out.
 *
 * @example
 * ```ts
 * const user: UserRecord = { end_user: hash, tags: {}, active_from: '2026-01-01' };
 * ```
 */
export interface UserRecord {
  /** Identifies the user. */
  end_user: string;
  /** Tags of the user. */
  tags: Tags;
  /** When the user got access to the platform. */
  active_from: string;
  /** When access was revoked. */
  active_to?: string | undefined;
}

/**
 * Parameters of insert and update, eligible and platform users alike.
 *
 * @example
 * ```ts
 * await nebuly.eligibleUsers.insert({ users: [{ end_user: hash, tags: { department: 'sales' }, active_from: '2026-01-01' }] });
 * ```
 */
export interface UsersParams {
  /** The user records. */
  users: UserRecordInput[];
}

/**
 * Parameters of `eligibleUsers.delete`.
 *
 * @example
 * ```ts
 * await nebuly.eligibleUsers.delete({ users: [hash] });
 * ```
 */
export interface DeleteUsersParams {
  /** The `end_user` of each user to delete. */
  users: string[];
}

/**
 * A user record as the service answers it; fields the SDK does not know are kept.
 *
 * @example
 * ```ts
 * const { users } = await nebuly.eligibleUsers.list();
 * for (const user of users) console.log(user.end_user, user.active_to ?? 'open');
 * ```
 */
export interface UserRecordResponse {
  /** Identifies the user. */
  end_user: string;
  /** Tags of the user. */
  tags: Record<string, unknown>;
  /** When the user got access to the platform, as the service wrote it. */
  active_from: string;
  /** When access was revoked; `null` or absent when it was not. */
  active_to?: string | null | undefined;
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * The answer of insert, update and list: the users inserted, updated or stored.
 *
 * @example
 * ```ts
 * const { users } = await nebuly.platformUsers.list();
 * ```
 */
export interface UsersResponse {
  /** The user records. */
  users: UserRecordResponse[];
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * An answer that carries a confirmation message.
 *
 * @example
 * ```ts
 * const { message } = await nebuly.eligibleUsers.delete({ users: [hash] });
 * ```
 */
export interface MessageResponse {
  /** The service's confirmation, e.g. `"2 interactions deleted"`. */
  message: string;
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}
