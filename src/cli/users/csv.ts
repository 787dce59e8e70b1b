import type { UserRecord } from '../../schemas/index.js';
import { userRecordSchema } from '../../schemas/users.js';
import { type Cell, CsvParser, type CsvRecord, CsvSyntaxError } from './csv-parser.js';
import type { ExportedUser } from './exported.js';
import { RowChecker, type ReadUsers } from './records.js';

/** The columns of a users CSV besides the tags: the user record's fields, in its schema's order. */
export const CSV_COLUMNS: readonly string[] = Object.keys(userRecordSchema.shape).filter((name) => name !== 'tags');
/** A column named `tag.<name>` holds the tag `<name>`. */
export const TAG_PREFIX = 'tag.';
const REQUIRED_COLUMNS = CSV_COLUMNS.filter(
  (name) => userRecordSchema.shape[name as keyof typeof userRecordSchema.shape]._zod.optin !== 'optional',
);

function columnOf(path: readonly (string | number)[]): string | undefined {
  const [first, second] = path;
  if (first === 'tags' && second !== undefined) return `${TAG_PREFIX}${second}`;
  return first === undefined ? undefined : String(first);
}

/** A checker of users CSV rows: issues are named by column. */
export function csvChecker(keepUsers = true, remember = true): RowChecker {
  return new RowChecker(columnOf, keepUsers, remember);
}

/** Separators other than the comma that spreadsheets write, named for the hint. */
const OTHER_SEPARATORS: ReadonlyArray<readonly [string, string]> = [
  [';', 'semicolons (";", as Excel saves CSV where the comma is the decimal mark)'],
  ['\t', 'tabs (a TSV file)'],
];

/** The other separator a one-cell header is split by into known columns, described; else undefined. */
function otherSeparator(header: readonly Cell[]): string | undefined {
  if (header.length !== 1) return undefined;
  const [{ value }] = header as [Cell];
  for (const [separator, described] of OTHER_SEPARATORS) {
    const names = value.split(separator);
    if (names.length > 1 && names.some((name) => CSV_COLUMNS.includes(name) || name.startsWith(TAG_PREFIX))) return described;
  }
  return undefined;
}

function checkHeader(header: readonly Cell[], checker: RowChecker): void {
  const separator = otherSeparator(header);
  if (separator !== undefined) {
    checker.issue(1, `the columns are separated by ${separator}, not commas: save the file as comma-separated CSV ("CSV UTF-8 (Comma delimited)" in Excel)`);
    return;
  }
  const seen = new Set<string>();
  for (const { value: name } of header) {
    if (seen.has(name)) checker.issue(1, 'appears twice in the header', name);
    seen.add(name);
    const known = CSV_COLUMNS.includes(name);
    if (name.startsWith(TAG_PREFIX) ? name.length === TAG_PREFIX.length : !known) {
      checker.issue(1, `unknown column; expected ${CSV_COLUMNS.join(', ')} or ${TAG_PREFIX}<name>`, name === '' ? '(empty)' : name);
    }
  }
  for (const name of REQUIRED_COLUMNS) {
    if (!seen.has(name)) checker.issue(1, 'missing from the header', name);
  }
}

/** One row as a user record, before validation: cells by column, tags gathered. */
function toInput(header: readonly Cell[], cells: readonly Cell[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const tags: Record<string, string> = {};
  header.forEach(({ value: name }, index) => {
    const cell = cells[index];
    if (cell === undefined || (cell.value === '' && !cell.quoted)) return;
    if (name.startsWith(TAG_PREFIX)) tags[name.slice(TAG_PREFIX.length)] = cell.value;
    else input[name] = cell.value;
  });
  input['tags'] = tags;
  return input;
}

/** The records of the chunks (UTF-8, checked), as they are parsed. */
async function* recordsOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<CsvRecord> {
  const parser = new CsvParser();
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) yield* parser.push(decoder.decode(chunk, { stream: true }));
  yield* parser.push(decoder.decode());
  yield* parser.end();
}

/**
 * Reads a users CSV as it streams: a header row of `end_user`, `active_from`, optional
 * `active_to` and `tag.<name>` columns, then one user a row. An empty cell is no value
 * (no tag, no `active_to`); `""` is an empty string. Each valid row is yielded with its
 * line; each problem goes to `checker`, by line and column. Only the rows being parsed
 * are held, so a file of a million rows is read in bounded memory.
 *
 * @example
 * ```ts
 * const checker = csvChecker(false);
 * for await (const { user } of csvUsers(createReadStream(path), checker)) count += 1;
 * ```
 */
export async function* csvUsers(chunks: AsyncIterable<Uint8Array>, checker: RowChecker): AsyncGenerator<{ line: number; user: UserRecord }> {
  let header: Cell[] | undefined;
  try {
    for await (const { line, cells } of recordsOf(chunks)) {
      if (header === undefined) {
        header = cells;
        checkHeader(header, checker);
        if (checker.issueCount > 0) return;
        continue;
      }
      if (cells.length !== header.length) {
        checker.issue(line, `has ${cells.length} cells; the header has ${header.length}`);
        continue;
      }
      const user = checker.check(line, toInput(header, cells));
      if (user !== undefined) yield { line, user };
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    checker.issue(error.line, `malformed CSV: ${error.message}; rows after it were not read`);
    return;
  }
  if (header === undefined) {
    checker.issue(1, `no header row: the first line names the columns, e.g. ${CSV_COLUMNS.join(',')},${TAG_PREFIX}department`);
  }
}

/**
 * Reads a whole users CSV held in memory: every row checked; the valid users, and each
 * problem by line and column.
 *
 * @example
 * ```ts
 * const { users, issues } = await readUsersCsv('end_user,active_from\nu-1,2026-01-01\n');
 * ```
 */
export async function readUsersCsv(text: string): Promise<ReadUsers> {
  const checker = csvChecker();
  async function* one(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(text, 'utf8');
  }
  for await (const row of csvUsers(one(), checker)) void row;
  return checker.result;
}

function cell(value: string): string {
  return value === '' || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * What a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, and a tab or carriage
 * return before one): OWASP's list for CSV injection.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** With `safeFormulas`, a data cell a spreadsheet would run as a formula, prefixed with `'`. */
function dataCell(value: string, safeFormulas: boolean): string {
  return cell(safeFormulas && FORMULA_START.test(value) ? `'${value}` : value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Writes users as the CSV that {@link readUsersCsv} reads back to the same records: the
 * tag columns are every tag name in use, sorted; a missing tag or `active_to` is an empty
 * cell, an empty string is `""`. With `safeFormulas`, a cell a spreadsheet would run as a
 * formula is written with a leading `'` instead, which is then part of its value.
 */
export function writeUsersCsv(users: readonly ExportedUser[], safeFormulas = false): string {
  const tagNames = [...new Set(users.flatMap((user) => Object.keys(user.tags)))].sort();
  const lines = [[...CSV_COLUMNS, ...tagNames.map((name) => `${TAG_PREFIX}${name}`)].map((name) => dataCell(name, safeFormulas)).join(',')];
  const data = (value: string) => dataCell(value, safeFormulas);
  for (const user of users) {
    const cells = [data(user.end_user), data(user.active_from), user.active_to === undefined ? '' : data(user.active_to)];
    for (const name of tagNames) {
      cells.push(Object.hasOwn(user.tags, name) ? data(text(user.tags[name])) : '');
    }
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}
