import type { UserRecord, UsersResponse } from '../../schemas/index.js';
import { parseCommand } from '../args.js';
import { connect, CONNECTION_USAGE, readWholeNumber, type Env } from '../connection.js';
import { CliError, concernsThisRequestOnly, describeError, EXIT } from '../failure.js';
import { count, escapeControl, plural, type Io } from '../io.js';
import { Progress } from '../progress.js';
import { usersApi, type UsersApi } from './api.js';
import { diffUsers, type UsersDiff } from './diff.js';
import { readUsersFile } from './file.js';

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

function listed<T>(items: readonly T[], verbose: boolean, line: (item: T) => string): string {
  const shown = verbose ? items : items.slice(0, LISTED);
  const lines = shown.map(line);
  if (shown.length < items.length) lines.push(`  … and ${count(items.length - shown.length)} more (--verbose lists them all)`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function printDiff(io: Io, diff: UsersDiff, deleteMissing: boolean, verbose: boolean, where: string): void {
  const kept = deleteMissing || diff.missing.length === 0 ? '' : `  (${plural(diff.missing.length, 'stored user')} not in the file kept: no --delete-missing)`;
  io.out(
    `Diff against ${where}:\n` +
      `  to insert: ${count(diff.insert.length)}\n` +
      `  to update: ${count(diff.update.length)}\n` +
      `  unchanged: ${count(diff.unchanged)}\n` +
      `  to delete: ${count(deleteMissing ? diff.missing.length : 0)}${kept}\n`,
  );
  io.out(listed(diff.insert, verbose, (user) => `+ ${escapeControl(user.end_user)}`));
  io.out(listed(diff.update, verbose, ({ user, changes }) => `~ ${escapeControl(`${user.end_user}: ${changes.join('; ')}`)}`));
  if (deleteMissing) io.out(listed(diff.missing, verbose, (endUser) => `- ${escapeControl(endUser)}`));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
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

async function apply<T>(
  context: ApplyContext,
  kind: Kind,
  items: readonly T[],
  send: (batch: T[]) => Promise<string[]>,
): Promise<KindOutcome> {
  const outcome: KindOutcome = { kind, total: items.length, applied: 0, notApplied: [] };
  if (items.length === 0) return outcome;
  const batches = chunks(items, context.batchSize);
  const progress = new Progress(context.io, kind, items.length, 'users');
  let failed = 0;
  for (const [index, batch] of batches.entries()) {
    const label = `batch ${index + 1}/${batches.length}`;
    if (context.stopped) {
      const rest = batches.slice(index).reduce((sum, b) => sum + b.length, 0);
      outcome.notApplied.push({ count: rest, reason: `${label} on: not sent, after the failure above` });
      break;
    }
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

function report(io: Io, outcomes: readonly KindOutcome[]): number {
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
  if (platform && deleteMissing) {
    throw new CliError(
      '--delete-missing cannot be used with --platform: the platform-users API documents no delete. Delete through eligible users (the same list) without --platform.',
    );
  }
  const batchSize = readWholeNumber('batch-size', values['batch-size'], 1, 10_000) ?? SYNC_BATCH_SIZE;
  const file = positionals[0] ?? '';
  const { client, host } = await connect(values, env);
  const { users } = await readUsersFile(file);
  const api: UsersApi = usersApi(client, platform);
  io.out(`Read ${plural(users.length, 'user')} from ${file}.\n`);

  let current: UsersResponse;
  try {
    current = await api.list();
  } catch (error) {
    throw new CliError(`could not read the ${api.name}, so nothing was sent: ${describeError(error, host.shown)}`, EXIT.failed);
  }
  const diff = diffUsers(users, current.users);
  if (deleteMissing && users.length === 0 && diff.missing.length > 0) {
    throw new CliError(`${file} has no users: with --delete-missing that would delete all ${count(diff.missing.length)}; nothing was sent`);
  }
  printDiff(io, diff, deleteMissing, values.verbose === true, `the ${plural(current.users.length, api.name.replace(/s$/, ''))} at ${host.shown}`);
  if (values['dry-run'] === true) {
    io.out('Dry run: nothing was sent.\n');
    return;
  }

  if (diff.insert.length === 0 && diff.update.length === 0 && (!deleteMissing || diff.missing.length === 0)) {
    io.out(`Nothing to change: the ${api.name} are what ${file} says.\n`);
    return;
  }
  const context: ApplyContext = { io, host: host.shown, batchSize, stopped: false };
  const outcomes = [
    await apply(context, 'insert', diff.insert, async (batch) => skippedOf(batch, await api.insert(batch))),
    await apply(context, 'update', diff.update.map(({ user }) => user), async (batch) => skippedOf(batch, await api.update(batch))),
  ];
  const remove = api.delete;
  if (deleteMissing && remove !== undefined) {
    outcomes.push(
      await apply(context, 'delete', diff.missing, async (batch) => {
        await remove(batch);
        return [];
      }),
    );
  }
  const notApplied = report(io, outcomes);
  if (notApplied > 0) {
    const total = outcomes.reduce((sum, o) => sum + o.total, 0);
    throw new CliError(`${count(notApplied)} of ${plural(total, 'change')} not applied (listed above)`, EXIT.failed);
  }
}
