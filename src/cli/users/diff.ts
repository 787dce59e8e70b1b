import type { UserRecord, UserRecordResponse } from '../../schemas/index.js';
import { TAG_PREFIX } from './csv.js';

/** A user of the file whose stored record differs, and how. */
export interface UserUpdate {
  user: UserRecord;
  /** Each difference in words: `tag.department sales → marketing`. */
  changes: string[];
}

/** What a sync does: the file against the service's current list. */
export interface UsersDiff {
  /** Users of the file the service does not have. */
  insert: UserRecord[];
  /** Users of the file whose stored tags or access period differ. */
  update: UserUpdate[];
  /** How many users of the file are stored exactly so. */
  unchanged: number;
  /** Stored users not in the file: deleted with `--delete-missing`, else kept. */
  missing: string[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME_WITHOUT_OFFSET = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * A timestamp as an instant, so that `2026-01-01` and `2026-01-01T00:00:00Z` (a service
 * may answer either for the same value) are the same. A date, or a date-time without an
 * offset, is taken as UTC.
 */
function instant(value: string): number {
  if (DATE.test(value)) return Date.parse(`${value}T00:00:00Z`);
  if (DATE_TIME_WITHOUT_OFFSET.test(value)) return Date.parse(`${value}Z`);
  return Date.parse(value);
}

function sameTime(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  if (a === b) return true;
  const left = instant(a);
  return !Number.isNaN(left) && left === instant(b);
}

function show(value: unknown): string {
  return value === undefined || value === null ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value);
}

function changesOf(wanted: UserRecord, stored: UserRecordResponse): string[] {
  const changes: string[] = [];
  if (!sameTime(wanted.active_from, stored.active_from)) {
    changes.push(`active_from ${show(stored.active_from)} → ${show(wanted.active_from)}`);
  }
  if (!sameTime(wanted.active_to, stored.active_to)) {
    changes.push(`active_to ${show(stored.active_to)} → ${show(wanted.active_to)}`);
  }
  const names = new Set([...Object.keys(stored.tags), ...Object.keys(wanted.tags)]);
  for (const name of [...names].sort()) {
    const before = Object.hasOwn(stored.tags, name) ? stored.tags[name] : undefined;
    const after = Object.hasOwn(wanted.tags, name) ? wanted.tags[name] : undefined;
    if (before !== after) changes.push(`${TAG_PREFIX}${name} ${show(before)} → ${show(after)}`);
  }
  return changes;
}

/** Compares the users of a file with the service's list, matching on `end_user`. */
export function diffUsers(wanted: readonly UserRecord[], current: readonly UserRecordResponse[]): UsersDiff {
  const stored = new Map(current.map((user) => [user.end_user, user]));
  const diff: UsersDiff = { insert: [], update: [], unchanged: 0, missing: [] };
  const inFile = new Set<string>();
  for (const user of wanted) {
    inFile.add(user.end_user);
    const before = stored.get(user.end_user);
    if (before === undefined) {
      diff.insert.push(user);
      continue;
    }
    const changes = changesOf(user, before);
    if (changes.length === 0) diff.unchanged += 1;
    else diff.update.push({ user, changes });
  }
  for (const user of current) if (!inFile.has(user.end_user)) diff.missing.push(user.end_user);
  return diff;
}
