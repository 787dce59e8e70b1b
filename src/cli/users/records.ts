import * as z from 'zod/mini';
import type { UserRecord } from '../../schemas/index.js';
import { toIssues } from '../../schemas/issues.js';
import { userRecordSchema } from '../../schemas/users.js';
import { escapeControl } from '../io.js';

/** A problem with one row of a users file: where it is and what is wrong. */
export interface RowIssue {
  /** The line of the file the row starts on, from 1. */
  line: number;
  /** The column (CSV) or field (JSON) concerned, when it is one. */
  column?: string | undefined;
  message: string;
}

/** What a users file holds once read: valid users, or the problems of every bad row. */
export interface ReadUsers {
  users: UserRecord[];
  issues: RowIssue[];
}

// Strict: a misspelt field (`active_too`) in a file meant to be the source of truth must
// not be dropped quietly.
const fileUserSchema = z.strictObject(userRecordSchema.shape);

/** Collects rows: validates each with the SDK's own schema and catches repeated `end_user`s. */
export class RowChecker {
  readonly result: ReadUsers = { users: [], issues: [] };
  readonly #firstLine = new Map<string, number>();
  readonly #columnOf: (path: readonly (string | number)[]) => string | undefined;

  /** @param columnOf names the column or field of an issue's path. */
  constructor(columnOf: (path: readonly (string | number)[]) => string | undefined) {
    this.#columnOf = columnOf;
  }

  /** Reports a problem that is not about a field's value (a row of the wrong length, say). */
  issue(line: number, message: string, column?: string): void {
    this.result.issues.push({ line, column, message });
  }

  /** Validates one row; keeps it when valid, else records each of its problems. */
  check(line: number, input: unknown): void {
    const parsed = z.safeParse(fileUserSchema, input);
    if (!parsed.success) {
      const raw = parsed.error.issues;
      toIssues(raw, input).forEach((issue, index) => {
        const rawIssue = raw[index];
        if (rawIssue?.code === 'unrecognized_keys') this.issue(line, 'unknown field', rawIssue.keys.join(', '));
        else this.issue(line, issue.message, this.#columnOf(issue.path));
      });
      return;
    }
    const user = parsed.data;
    const first = this.#firstLine.get(user.end_user);
    if (first !== undefined) {
      this.issue(line, `repeats the end_user of line ${first}`, this.#columnOf(['end_user']));
      return;
    }
    this.#firstLine.set(user.end_user, line);
    this.result.users.push(user);
  }
}

/** The issues as lines a person can read, at most `limit` of them. */
export function formatIssues(file: string, issues: readonly RowIssue[], kind: 'column' | 'field', limit = 50): string {
  const shown = issues.slice(0, limit).map((issue) => {
    const where = issue.column === undefined ? '' : `, ${kind} ${issue.column}`;
    return escapeControl(`  ${file}:${issue.line}${where}: ${issue.message}`);
  });
  if (issues.length > limit) shown.push(`  … and ${issues.length - limit} more`);
  return shown.join('\n');
}
