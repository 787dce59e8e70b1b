import type { UserRecord, UsersResponse } from '../../schemas/index.js';
import { parseCommand } from '../args.js';
import { connect, CONNECTION_USAGE, readWholeNumber, type Env } from '../connection.js';
import { CliError, concernsThisRequestOnly, describeError, EXIT } from '../failure.js';
import { count, escapeControl, plural, type Io } from '../io.js';
import { Progress } from '../progress.js';
import { usersApi, type UsersApi } from './api.js';
import { classify, SyncDiff } from './diff.js';
import { UsersFile } from './file.js';

/** Users per request, unless `--batch-size` says otherwise: well under the service's body limits. */
export const SYNC_BATCH_SIZE = 500;
/** How many users of each kind the diff lists without `--verbose`. */
const LISTED = 20;

const USAGE = `Usage: nebuly users sync <file> [options]

Makes the project's users what <file> says: inserts the users it lacks, updates the ones
whose tags or access period differ and, with --delete-missing, deletes the ones not in
the file. Every row is checked first; nothing is sent when any row is bad.

<file> is CSV (header: end_user,active_from,active_to,tag.<name>,...) or JSON (an array
of user records, as \`nebuly users export\` writes them).

Options:
  --dry-run              print the diff, send nothing
  --delete-missing       delete stored users that are not in the file
  --platform             work on platform users instead of eligible users
  --batch-size <n>       users per request                    (default ${SYNC_BATCH_SIZE})
  -v, --verbose          list every user of the diff, not the first ${LISTED}
  -h, --help             show this help

${CONNECTION_USAGE}`;

const OPTIONS = {
  'dry-run': { type: 'boolean' },
  'delete-missing': { type: 'boolean' },
  platform: { type: 'boolean' },
  'batch-size': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
} as const;

type Kind = 'insert' | 'update' | 'delete';

/** What happened to one kind of change. */
interface KindOutcome {
  kind: Kind;
  total: number;
  applied: number;
  /** What was not applied, and why, one entry per batch. */
  notApplied: { count: number; reason: string }[];
}

/** The lines of `items` (the first of `total`), and how many more there are. */
function listed<T>(items: readonly T[], total: number, verbose: boolean, line: (item: T) => string): string {
  const shown = verbose ? items : items.slice(0, LISTED);
  const lines = shown.map(line);
  if (shown.length < total) lines.push(`  … and ${count(total - shown.length)} more (--verbose lists them all)`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function printDiff(io: Io, diff: SyncDiff, deleteMissing: boolean, verbose: boolean, where: string): void {
  const kept = deleteMissing || diff.missing.length === 0 ? '' : `  (${plural(diff.missing.length, 'stored user')} not in the file kept: no --delete-missing)`;
  io.out(
    `Diff against ${where}:\n` +
      `  to insert: ${count(diff.insert)}\n` +
      `  to update: ${count(diff.update)}\n` +
      `  unchanged: ${count(diff.unchanged)}\n` +
      `  to delete: ${count(deleteMissing ? diff.missing.length : 0)}${kept}\n`,
  );
  io.out(listed(diff.inserted, diff.insert, verbose, (endUser) => `+ ${escapeControl(endUser)}`));
  io.out(listed(diff.updated, diff.update, verbose, ({ endUser, changes }) => `~ ${escapeControl(`${endUser}: ${changes.join('; ')}`)}`));
  if (deleteMissing) io.out(listed(diff.missing, diff.missing.length, verbose, (endUser) => `- ${escapeControl(endUser)}`));
}

/** The items in batches of `size`, as they come. */
async function* batchesOf<T>(items: AsyncIterable<T> | Iterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Users of a batch the service left out of its answer: it skipped them. */
function skippedOf(batch: readonly UserRecord[], answer: UsersResponse): string[] {
  const answered = new Set(answer.users.map((user) => user.end_user));
  return batch.filter((user) => !answered.has(user.end_user)).map((user) => user.end_user);
}

interface ApplyContext {
  io: Io;
  host: string;
  batchSize: number;
  /** Set once a failure means the rest would fail too. */
  stopped: boolean;
}

/**
 * Sends `items` (`total` of them, as they stream) in batches; a batch refused for what
 * it holds is counted as not applied and the others go on, a failure that would fail them all stops.
 */
async function apply<T>(
  context: ApplyContext,
  kind: Kind,
  total: number,
  items: AsyncIterable<T> | Iterable<T>,
  send: (batch: T[]) => Promise<string[]>,
): Promise<KindOutcome> {
  const outcome: KindOutcome = { kind, total, applied: 0, notApplied: [] };
  if (total === 0) return outcome;
  const batchCount = Math.ceil(total / context.batchSize);
  const progress = new Progress(context.io, kind, total, 'users');
  let failed = 0;
  let index = 0;
  let sent = 0;
  for await (const batch of batchesOf(items, context.batchSize)) {
    const label = `batch ${index + 1}/${batchCount}`;
    index += 1;
    if (context.stopped) {
      outcome.notApplied.push({ count: total - sent, reason: `${label} on: not sent, after the failure above` });
      break;
    }
    sent += batch.length;
    try {
      const skipped = await send(batch);
      outcome.applied += batch.length - skipped.length;
      failed += skipped.length;
      if (skipped.length > 0) {
        const examples = escapeControl(skipped.slice(0, 3).join(', '));
        outcome.notApplied.push({
          count: skipped.length,
          reason: `${label}: the service skipped ${plural(skipped.length, 'user')} of it (${examples}${skipped.length > 3 ? ', …' : ''})`,
        });
      }
    } catch (error) {
      failed += batch.length;
      outcome.notApplied.push({ count: batch.length, reason: `${label}: ${describeError(error, context.host)}` });
      if (!concernsThisRequestOnly(error)) context.stopped = true;
    }
    progress.advance(batch.length, failed === 0 ? '' : `${count(failed)} not applied`);
  }
  progress.finish();
  return outcome;
}

const PAST = { insert: 'inserted', update: 'updated', delete: 'deleted' } as const;

/** Prints what was applied and what was not; the count not applied. */
function printSummary(io: Io, outcomes: readonly KindOutcome[]): number {
  io.out(`Applied: ${outcomes.map((o) => `${count(o.applied)} ${PAST[o.kind]}`).join(', ')}.\n`);
  const failures = outcomes.filter((o) => o.notApplied.length > 0);
  if (failures.length === 0) return 0;
  const notApplied = failures.reduce((sum, o) => sum + o.total - o.applied, 0);
  io.out('Not applied:\n');
  for (const outcome of failures) {
    io.out(`  ${count(outcome.total - outcome.applied)} to ${outcome.kind}:\n`);
    for (const { count: n, reason } of outcome.notApplied) io.out(`    ${plural(n, 'user')}: ${reason}\n`);
  }
  io.out(
    'Run the same command again to apply the rest: it compares the file with the list as it is then, so what was applied is not sent again.\n',
  );
  return notApplied;
}

/** `nebuly users sync <file>`: validate, diff against the service's list, apply in batches. */
export async function usersSync(argv: readonly string[], env: Env, io: Io): Promise<void> {
  const { values, positionals } = parseCommand(argv, OPTIONS, { min: 1, max: 1, command: 'users sync' });
  if (values.help === true) {
    io.out(`${USAGE}\n`);
    return;
  }
  const platform = values.platform === true;
  const deleteMissing = values['delete-missing'] === true;
  const batchSize = readWholeNumber('batch-size', values['batch-size'], 1, 10_000) ?? SYNC_BATCH_SIZE;
  const path = positionals[0] ?? '';
  const { client, host } = await connect(values, env);
  const file = await UsersFile.check(path);
  const api: UsersApi = usersApi(client, platform);
  io.out(`Read ${plural(file.count, 'user')} from ${path}.\n`);

  let current: UsersResponse;
  try {
    current = await api.list();
  } catch (error) {
    throw new CliError(`could not read the ${api.name}, so nothing was sent: ${describeError(error, host.shown)}`, EXIT.failed);
  }
  // The file is read again for each pass (the diff, the inserts, the updates): only the
  // stored list and each end_user of the file stay in memory, not the file's records.
  const stored = new Map(current.users.map((user) => [user.end_user, user]));
  const diff = new SyncDiff(stored, values.verbose === true ? Infinity : LISTED);
  for await (const { user } of file.users()) diff.add(user);
  diff.findMissing(current.users, (endUser) => file.has(endUser));
  if (deleteMissing && file.count === 0 && diff.missing.length > 0) {
    throw new CliError(`${path} has no users: with --delete-missing that would delete all ${count(diff.missing.length)}; nothing was sent`);
  }
  printDiff(io, diff, deleteMissing, values.verbose === true, `the ${plural(current.users.length, api.name.replace(/s$/, ''))} at ${host.shown}`);
  if (values['dry-run'] === true) {
    io.out('Dry run: nothing was sent.\n');
    return;
  }

  if (diff.insert === 0 && diff.update === 0 && (!deleteMissing || diff.missing.length === 0)) {
    io.out(`Nothing to change: the ${api.name} are what ${path} says.\n`);
    return;
  }
  const context: ApplyContext = { io, host: host.shown, batchSize, stopped: false };
  async function* ofKind(kind: 'insert' | 'update'): AsyncGenerator<UserRecord> {
    for await (const { user } of file.users()) if (classify(user, stored).kind === kind) yield user;
  }
  const outcomes = [
    await apply(context, 'insert', diff.insert, ofKind('insert'), async (batch) => skippedOf(batch, await api.insert(batch))),
    await apply(context, 'update', diff.update, ofKind('update'), async (batch) => skippedOf(batch, await api.update(batch))),
  ];
  if (deleteMissing) {
    outcomes.push(
      await apply(context, 'delete', diff.missing.length, diff.missing, async (batch) => {
        await api.delete(batch);
        return [];
      }),
    );
  }
  const notApplied = printSummary(io, outcomes);
  if (notApplied > 0) {
    const total = outcomes.reduce((sum, o) => sum + o.total, 0);
    throw new CliError(`${count(notApplied)} of ${plural(total, 'change')} not applied (listed above)`, EXIT.failed);
  }
}
