import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { UserRecord } from '../../schemas/index.js';
import { cannotRead, CliError, EXIT } from '../failure.js';
import { plural } from '../io.js';
import { csvChecker, csvUsers } from './csv.js';
import { utf8Chunks } from './encoding.js';
import { jsonChecker, jsonUsers } from './json.js';
import { formatIssues, type RowChecker } from './records.js';

/** The formats a users file can have. */
export type UsersFormat = 'csv' | 'json';

/** A valid user of a file, with the line it starts on. */
export interface FileUser {
  line: number;
  user: UserRecord;
}

/** `.json` is JSON, `.csv` is CSV; any other name is JSON when it starts with `[` or `{`. */
async function formatOf(path: string): Promise<UsersFormat> {
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.csv') return 'csv';
  let start: string;
  try {
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
      start = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw cannotRead(path, error);
  }
  return /^\uFEFF?\s*[[{]/.test(start) ? 'json' : 'csv';
}

/** The file's chunks as read, a read error turned into the usage error that names the file. */
async function* chunksOf(path: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    throw cannotRead(path, error);
  }
}

/**
 * A users file, read as often as a sync needs: once to check every row, then once per
 * pass (diff, inserts, updates), streaming a CSV so that memory stays bounded whatever
 * its size. Only each `end_user`'s line is kept across passes.
 *
 * @example
 * ```ts
 * const file = await UsersFile.check('users.csv'); // throws, listing the bad rows
 * for await (const { user } of file.users()) console.log(user.end_user);
 * ```
 */
export class UsersFile {
  readonly path: string;
  readonly format: UsersFormat;
  /** How many valid users the file has. */
  readonly count: number;
  readonly #checker: RowChecker;

  private constructor(path: string, format: UsersFormat, checker: RowChecker, count: number) {
    this.path = path;
    this.format = format;
    this.#checker = checker;
    this.count = count;
  }

  /**
   * Reads and checks the whole file. Throws a {@link CliError} (exit 2) that lists every
   * bad row by line and column when any row is bad, so that nothing is sent, and when
   * the file is not UTF-8.
   */
  static async check(path: string): Promise<UsersFile> {
    const format = await formatOf(path);
    const checker = format === 'csv' ? csvChecker(false) : jsonChecker(false);
    let count = 0;
    for await (const row of read(path, format, checker)) {
      void row;
      count += 1;
    }
    if (checker.issueCount > 0) {
      const rows = checker.badRows;
      throw new CliError(
        `${path}: ${plural(rows, 'bad row')}; nothing was sent. Fix ${rows === 1 ? 'it' : 'them'} and run again:\n` +
          formatIssues(path, checker.result.issues, format === 'csv' ? 'column' : 'field', 50, checker.issueCount),
        EXIT.usage,
      );
    }
    return new UsersFile(path, format, checker, count);
  }

  /** Whether the file has a user with this `end_user`. */
  has(endUser: string): boolean {
    return this.#checker.has(endUser);
  }

  /** The file's users, read again, in file order. */
  users(): AsyncGenerator<FileUser> {
    // Checked already: a fresh checker that keeps nothing, only to turn rows into records.
    return read(this.path, this.format, this.format === 'csv' ? csvChecker(false, false) : jsonChecker(false, false));
  }
}

async function* read(path: string, format: UsersFormat, checker: RowChecker): AsyncGenerator<FileUser> {
  if (format === 'csv') {
    yield* csvUsers(utf8Chunks(chunksOf(path), path), checker);
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
  async function* whole(): AsyncGenerator<Uint8Array> {
    yield bytes;
  }
  for await (const chunk of utf8Chunks(whole(), path)) void chunk;
  yield* jsonUsers(bytes.toString('utf8'), checker);
}
