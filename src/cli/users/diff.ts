import type { UserRecord, UserRecordResponse } from '../../schemas/index.js';
import { TAG_PREFIX } from './csv.js';

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

/** What a sync does with one user of the file. */
export type Change = { kind: 'insert' } | { kind: 'update'; changes: string[] } | { kind: 'unchanged' };

/**
 * What a sync does with one user of the file, given the stored users by `end_user`.
 *
 * @example
 * ```ts
 * classify(user, new Map(current.map((stored) => [stored.end_user, stored]))).kind; // 'insert'
 * ```
 */
export function classify(user: UserRecord, stored: ReadonlyMap<string, UserRecordResponse>): Change {
  const before = stored.get(user.end_user);
  if (before === undefined) return { kind: 'insert' };
  const changes = changesOf(user, before);
  return changes.length === 0 ? { kind: 'unchanged' } : { kind: 'update', changes };
}

/**
 * What a sync does, counted as the file streams past: how many users to insert, to update
 * and unchanged, the first `listed` of those to insert and to update (for the diff
 * printed), and the stored users missing from the file. Holds no user record.
 *
 * @example
 * ```ts
 * const diff = new SyncDiff(storedByEndUser, 20);
 * for await (const { user } of file.users()) diff.add(user);
 * diff.findMissing(current.users, (endUser) => file.has(endUser));
 * ```
 */
export class SyncDiff {
  insert = 0;
  update = 0;
  unchanged = 0;
  /** The first `listed` users to insert, by `end_user`. */
  readonly inserted: string[] = [];
  /** The first `listed` users to update, with what changes. */
  readonly updated: { endUser: string; changes: string[] }[] = [];
  /** Stored users not in the file: deleted with `--delete-missing`, else kept. */
  missing: string[] = [];
  readonly #stored: ReadonlyMap<string, UserRecordResponse>;
  readonly #listed: number;

  /**
   * @param stored the service's users by `end_user`.
   * @param listed how many users of each kind are kept to be listed (`Infinity` for all).
   */
  constructor(stored: ReadonlyMap<string, UserRecordResponse>, listed: number) {
    this.#stored = stored;
    this.#listed = listed;
  }

  /** Counts one user of the file. */
  add(user: UserRecord): void {
    const change = classify(user, this.#stored);
    if (change.kind === 'insert') {
      this.insert += 1;
      if (this.inserted.length < this.#listed) this.inserted.push(user.end_user);
    } else if (change.kind === 'update') {
      this.update += 1;
      if (this.updated.length < this.#listed) this.updated.push({ endUser: user.end_user, changes: change.changes });
    } else this.unchanged += 1;
  }

  /** Lists the stored users that the file does not have. */
  findMissing(current: readonly UserRecordResponse[], inFile: (endUser: string) => boolean): void {
    this.missing = current.filter((user) => !inFile(user.end_user)).map((user) => user.end_user);
  }
}
