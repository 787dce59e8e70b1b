import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { UserRecord } from '../../schemas/index.js';
import { cannotRead, CliError, EXIT } from '../failure.js';
import { plural } from '../io.js';
import { readUsersCsv } from './csv.js';
import { readUsersJson } from './json.js';
import { formatIssues } from './records.js';

/** The formats a users file can have. */
export type UsersFormat = 'csv' | 'json';

/** `.json` is JSON, `.csv` is CSV; any other name is JSON when it starts with `[` or `{`. */
function formatOf(path: string, text: string): UsersFormat {
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.csv') return 'csv';
  return /^\uFEFF?\s*[[{]/.test(text) ? 'json' : 'csv';
}

/**
 * Reads and validates a whole users file. Throws a {@link CliError} (exit 2) that lists
 * every bad row by line and column when any row is bad, so that nothing is sent.
 */
export async function readUsersFile(path: string): Promise<{ format: UsersFormat; users: UserRecord[] }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw cannotRead(path, error);
  }
  const format = formatOf(path, text);
  const { users, issues } = format === 'csv' ? readUsersCsv(text) : readUsersJson(text);
  if (issues.length > 0) {
    const rows = new Set(issues.map((issue) => issue.line)).size;
    throw new CliError(
      `${path}: ${plural(rows, 'bad row')}; nothing was sent. Fix ${rows === 1 ? 'it' : 'them'} and run again:\n` +
        formatIssues(path, issues, format === 'csv' ? 'column' : 'field'),
      EXIT.usage,
    );
  }
  return { format, users };
}
