import type { UserRecordResponse } from '../../schemas/index.js';

/** A user as `export` writes it and `sync` reads it: the record's four fields, nothing else. */
export interface ExportedUser {
  end_user: string;
  tags: Record<string, unknown>;
  active_from: string;
  /** Left out while access has not been revoked (the service answers `null`). */
  active_to?: string;
}

/** A user as the service answers it, as exported: `active_to: null` left out, unknown fields dropped. */
export function toExported(user: UserRecordResponse): ExportedUser {
  const { end_user, tags, active_from, active_to } = user;
  return active_to === null || active_to === undefined
    ? { end_user, tags, active_from }
    : { end_user, tags, active_from, active_to };
}
