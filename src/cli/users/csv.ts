import { CsvError, parse } from 'csv-parse/sync';
import { userRecordSchema } from '../../schemas/users.js';
import { RowChecker, type ReadUsers } from './records.js';
import type { ExportedUser } from './exported.js';

/** The columns of a users CSV besides the tags: the user record's fields, in its schema's order. */
export const CSV_COLUMNS: readonly string[] = Object.keys(userRecordSchema.shape).filter((name) => name !== 'tags');
/** A column named `tag.<name>` holds the tag `<name>`. */
export const TAG_PREFIX = 'tag.';
const REQUIRED_COLUMNS = CSV_COLUMNS.filter(
  (name) => userRecordSchema.shape[name as keyof typeof userRecordSchema.shape]._zod.optin !== 'optional',
);

interface Cell {
  value: string;
  /** A quoted empty cell (`""`) is an empty string; an unquoted one is no value. */
  quoted: boolean;
}

interface Row {
  record: Cell[];
  /** Bytes read up to the end of this record, its line break included. */
  info: { bytes: number };
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The line each record starts on. csv-parse's own line count goes astray on CRLF line
 * breaks inside quoted cells, so lines are counted here, in the bytes: a record starts
 * where the previous one ended, after any empty lines that were skipped.
 */
function startLines(bytes: Uint8Array, rows: readonly Row[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let offset = 0;
  for (const row of rows) {
    while (offset < bytes.length && (bytes[offset] === NEWLINE || bytes[offset] === CARRIAGE_RETURN)) {
      if (bytes[offset] === NEWLINE) line += 1;
      offset += 1;
    }
    lines.push(line);
    for (; offset < row.info.bytes; offset += 1) if (bytes[offset] === NEWLINE) line += 1;
  }
  return lines;
}

function columnOf(path: readonly (string | number)[]): string | undefined {
  const [first, second] = path;
  if (first === 'tags' && second !== undefined) return `${TAG_PREFIX}${second}`;
  return first === undefined ? undefined : String(first);
}

function checkHeader(header: readonly Cell[], checker: RowChecker): void {
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

/**
 * Reads a users CSV: a header row of `end_user`, `active_from`, optional `active_to` and
 * `tag.<name>` columns, then one user a row. An empty cell is no value (no tag, no
 * `active_to`); `""` is an empty string. Every row is checked; each problem is reported
 * by line and column.
 */
export function readUsersCsv(text: string): ReadUsers {
  const checker = new RowChecker(columnOf);
  const bytes = Buffer.from(text, 'utf8');
  let rows: Row[];
  try {
    rows = parse(bytes, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      cast: (value, context): Cell => ({ value, quoted: context.quoting }),
    }) as unknown as Row[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The bytes read when it failed: the line is counted in them, as for records.
    const at = (error as CsvError & { bytes?: number }).bytes ?? 0;
    const line = 1 + bytes.subarray(0, at).filter((byte) => byte === NEWLINE).length;
    // csv-parse's own "at line N" can disagree with the line counted here: left out.
    checker.issue(line, `malformed CSV: ${error.message.replace(/ at line \d+/, '')}; rows after it were not read`);
    return checker.result;
  }
  const lines = startLines(bytes, rows);
  const [headerRow, ...dataRows] = rows;
  if (headerRow === undefined) {
    checker.issue(1, `no header row: the first line names the columns, e.g. ${CSV_COLUMNS.join(',')},${TAG_PREFIX}department`);
    return checker.result;
  }
  const header = headerRow.record;
  checkHeader(header, checker);
  if (checker.result.issues.length > 0) return checker.result;
  for (const [index, row] of dataRows.entries()) {
    const line = lines[index + 1] ?? 1;
    if (row.record.length !== header.length) {
      checker.issue(line, `has ${row.record.length} cells; the header has ${header.length}`);
      continue;
    }
    checker.check(line, toInput(header, row.record));
  }
  return checker.result;
}

function cell(value: string): string {
  return value === '' || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Writes users as the CSV that {@link readUsersCsv} reads back to the same records: the
 * tag columns are every tag name in use, sorted; a missing tag or `active_to` is an empty
 * cell, an empty string is `""`.
 */
export function writeUsersCsv(users: readonly ExportedUser[]): string {
  const tagNames = [...new Set(users.flatMap((user) => Object.keys(user.tags)))].sort();
  const lines = [[...CSV_COLUMNS, ...tagNames.map((name) => `${TAG_PREFIX}${name}`)].map(cell).join(',')];
  for (const user of users) {
    const cells = [cell(user.end_user), cell(user.active_from), user.active_to === undefined ? '' : cell(user.active_to)];
    for (const name of tagNames) {
      cells.push(Object.hasOwn(user.tags, name) ? cell(text(user.tags[name])) : '');
    }
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}
