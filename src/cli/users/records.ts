import * as z from 'zod/mini';
import type { UserRecord } from '../../schemas/index.js';
import { toIssues } from '../../schemas/issues.js';
import { accessPeriodCheck, userRecordSchema } from '../../schemas/users.js';
import { escapeControl } from '../io.js';

/** A problem with one row of a users file: where it is and what is wrong. */
export interface RowIssue {
  /** The line of the file the row starts on, from 1. */
  line: number;
  /** The column (CSV) or field (JSON) concerned, when it is one. */
  column?: string | undefined;
  message: string;
}

/** What a users file holds once read: valid users, and the problems of its bad rows (the first {@link KEPT_ISSUES}). */
export interface ReadUsers {
  users: UserRecord[];
  issues: RowIssue[];
}

// Strict: a misspelt field (`active_too`) in a file meant to be the source of truth must
// not be dropped quietly. The shape alone loses the record's own checks: added back.
const fileUserSchema = z.strictObject(userRecordSchema.shape).check(accessPeriodCheck);

/** How many issues are kept to be listed; the rest are counted. */
export const KEPT_ISSUES = 1000;

/**
 * Collects rows: validates each with the SDK's own schema and catches repeated
 * `end_user`s. Keeps the valid users only when asked (a file read whole); a sync of a
 * large file streams them instead, keeping only each `end_user`'s line.
 */
export class RowChecker {
  readonly result: ReadUsers = { users: [], issues: [] };
  readonly #firstLine = new Map<string, number>();
  readonly #columnOf: (path: readonly (string | number)[]) => string | undefined;
  readonly #keepUsers: boolean;
  #issueCount = 0;
  readonly #badLines = new Set<number>();

  readonly #remember: boolean;

  /**
   * @param columnOf names the column or field of an issue's path.
   * @param keepUsers whether the valid users are kept in `result.users`.
   * @param remember whether each `end_user` is remembered, to refuse repeats; a file read
   *   again after it was checked need not be.
   */
  constructor(columnOf: (path: readonly (string | number)[]) => string | undefined, keepUsers = true, remember = true) {
    this.#columnOf = columnOf;
    this.#keepUsers = keepUsers;
    this.#remember = remember;
  }

  /** How many problems were found (the first {@link KEPT_ISSUES} are in `result.issues`). */
  get issueCount(): number {
    return this.#issueCount;
  }

  /** How many rows have a problem. */
  get badRows(): number {
    return this.#badLines.size;
  }

  /** Whether a valid row with this `end_user` was seen. */
  has(endUser: string): boolean {
    return this.#firstLine.has(endUser);
  }

  /** Reports a problem that is not about a field's value (a row of the wrong length, say). */
  issue(line: number, message: string, column?: string): void {
    this.#issueCount += 1;
    this.#badLines.add(line);
    if (this.result.issues.length < KEPT_ISSUES) this.result.issues.push({ line, column, message });
  }

  /** Validates one row; returns it when valid (kept if asked), else records each of its problems. */
  check(line: number, input: unknown): UserRecord | undefined {
    const parsed = z.safeParse(fileUserSchema, input);
    if (!parsed.success) {
      const raw = parsed.error.issues;
      toIssues(raw, input).forEach((issue, index) => {
        const rawIssue = raw[index];
        if (rawIssue?.code === 'unrecognized_keys') this.issue(line, 'unknown field', rawIssue.keys.join(', '));
        else this.issue(line, issue.message, this.#columnOf(issue.path));
      });
      return undefined;
    }
    const user = parsed.data;
    const first = this.#firstLine.get(user.end_user);
    if (first !== undefined) {
      this.issue(line, `repeats the end_user of line ${first}`, this.#columnOf(['end_user']));
      return undefined;
    }
    // A copy of its own: the parsed text is a slice of a whole chunk of the file, which
    // it would otherwise keep in memory for as long as the map holds it.
    if (this.#remember) this.#firstLine.set(Buffer.from(user.end_user, 'utf8').toString('utf8'), line);
    if (this.#keepUsers) this.result.users.push(user);
    return user;
  }
}

/** The issues as lines a person can read, at most `limit` of them; `total` counts those not kept. */
export function formatIssues(file: string, issues: readonly RowIssue[], kind: 'column' | 'field', limit = 50, total = issues.length): string {
  const shown = issues.slice(0, limit).map((issue) => {
    const where = issue.column === undefined ? '' : `, ${kind} ${issue.column}`;
    return escapeControl(`  ${file}:${issue.line}${where}: ${issue.message}`);
  });
  if (total > shown.length) shown.push(`  … and ${total - shown.length} more`);
  return shown.join('\n');
}
