import type { UserRecord } from '../../schemas/index.js';
import type { ExportedUser } from './exported.js';
import { RowChecker, type ReadUsers } from './records.js';

function columnOf(path: readonly (string | number)[]): string | undefined {
  return path.length === 0 ? undefined : path.join('.');
}

/** `position 12` or `(line 2 column 3)`, as JSON.parse says it in Node 20 and later. */
function syntaxErrorLine(text: string, message: string): number {
  const line = /line (\d+)/.exec(message);
  if (line?.[1] !== undefined) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (position?.[1] === undefined) return 1;
  return text.slice(0, Number(position[1])).split('\n').length;
}

/**
 * The line each element of the users array starts on: the top-level array, or the array
 * under a top-level `"users"` key. A small scanner, because JSON.parse keeps no positions.
 */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  const stack: string[] = [];
  let line = 1;
  let inString = false;
  let escaped = false;
  let stringStart = 0;
  let lastKey: string | undefined;
  let target = -1; // the stack depth of the users array, once it is open
  let expectElement = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\n') line += 1;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') {
        inString = false;
        if (stack.length === 1 && stack[0] === '{') lastKey = text.slice(stringStart + 1, i);
      }
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') continue;
    if (expectElement && char !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (char === '"') {
      inString = true;
      stringStart = i;
    } else if (char === '[' || char === '{') {
      stack.push(char);
      const isUsers = char === '[' && (stack.length === 1 || (stack.length === 2 && stack[0] === '{' && lastKey === 'users'));
      if (isUsers && target === -1) {
        target = stack.length;
        expectElement = true;
      }
    } else if (char === ']' || char === '}') {
      if (stack.length === target) return lines;
      stack.pop();
    } else if (char === ',' && stack.length === target) {
      expectElement = true;
    }
  }
  return lines;
}

/** A checker of users JSON records: issues are named by field. */
export function jsonChecker(keepUsers = true, remember = true): RowChecker {
  return new RowChecker(columnOf, keepUsers, remember);
}

/**
 * Reads a users JSON file: an array of user records (what `export --format json` writes),
 * or an object with a `users` array (what the list endpoint answers). Every record is
 * checked; each valid one is yielded with the line it starts on, each problem goes to
 * `checker` by line and field. The text is parsed whole: for millions of users, CSV
 * streams.
 *
 * @example
 * ```ts
 * for (const { line, user } of jsonUsers(text, jsonChecker(false))) console.log(line, user.end_user);
 * ```
 */
export function* jsonUsers(text: string, checker: RowChecker): Generator<{ line: number; user: UserRecord }> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    checker.issue(syntaxErrorLine(text, message), `malformed JSON: ${message}`);
    return;
  }
  const users =
    Array.isArray(value) ? value
    : typeof value === 'object' && value !== null && Array.isArray((value as { users?: unknown }).users)
      ? (value as { users: unknown[] }).users
      : undefined;
  if (users === undefined) {
    checker.issue(1, 'expected an array of users, or an object with a "users" array');
    return;
  }
  const lines = elementLines(text);
  for (const [index, input] of users.entries()) {
    const line = lines[index] ?? 1;
    const user = checker.check(line, input);
    if (user !== undefined) yield { line, user };
  }
}

/**
 * Reads a whole users JSON text: the valid users, and each problem by line and field.
 *
 * @example
 * ```ts
 * const { users, issues } = readUsersJson('[{"end_user":"u-1","tags":{},"active_from":"2026-01-01"}]');
 * ```
 */
export function readUsersJson(text: string): ReadUsers {
  const checker = jsonChecker();
  for (const row of jsonUsers(text, checker)) void row;
  return checker.result;
}

/** Writes users as a JSON array, one user a line, that {@link readUsersJson} reads back. */
export function writeUsersJson(users: readonly ExportedUser[]): string {
  if (users.length === 0) return '[]\n';
  return `[\n${users.map((user) => `  ${JSON.stringify(user)}`).join(',\n')}\n]\n`;
}
