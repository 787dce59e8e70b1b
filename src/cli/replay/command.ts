import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { decodeDeadLetter, encodeDeadLetter } from '../../utils/dead-letter-line.js';
import { parseCommand } from '../args.js';
import { connect, CONNECTION_USAGE, readWholeNumber, type Env } from '../connection.js';
import { CliError, EXIT } from '../failure.js';
import { count, plural, type Io } from '../io.js';
import { Progress } from '../progress.js';
import { readLines, type Line } from './lines.js';
import { takeLock } from './lock.js';
import { keyOf, resend, type Outcome } from './send.js';
import { appendOwned, DONE, finish, readDone, REJECTED, takeFile, takenEarlier } from './taken.js';

/** Records in flight at once, unless `--concurrency` says otherwise. */
export const REPLAY_CONCURRENCY = 4;
/** Failures of the service in a row (5xx, 429, no answer) after which the replay stops sending. */
export const REPLAY_STOP_AFTER = 10;
/** How many problems the summary lists. */
const LISTED = 20;
/** How long an unterminated last line is given to be completed by a write under way. */
const SETTLE_MS = 200;

const USAGE = `Usage: nebuly replay <file> [options]

Resends the records of a dead-letter file (as writeDeadLetters from nebuly-client/node
writes them), each under its idempotency key, so a record the service already stored
is not stored twice. Safe while the app appends: the file is first renamed away
(<file>.taken-…) and the app's next record starts a new file. One replay at a time
(<file>.replay-lock). Records the service refuses (4xx) and unreadable lines are set
aside in <file>.rejected; records that fail for now (5xx, no answer) stay for the next
replay; progress is kept (<file>.taken-….done) so nothing delivered is sent again.

Options:
  --concurrency <n>      records in flight at once                         (default ${REPLAY_CONCURRENCY})
  --stop-after <n>       stop after this many service failures in a row    (default ${REPLAY_STOP_AFTER})
  -h, --help             show this help

${CONNECTION_USAGE}`;

const OPTIONS = { concurrency: { type: 'string' }, 'stop-after': { type: 'string' } } as const;

/** The counts and problems of one run, over every taken file. */
class Tally {
  delivered = 0;
  rejected = 0;
  kept = 0;
  failuresInARow = 0;
  stopped: string | undefined;
  readonly problems: string[] = [];

  note(where: string, what: string): void {
    if (this.problems.length < LISTED) this.problems.push(`  ${where}: ${what}`);
  }
}

interface Run {
  file: string;
  send: (line: string) => Promise<{ outcome: Outcome; record: string }>;
  concurrency: number;
  stopAfter: number;
  tally: Tally;
  io: Io;
}

/** Waits until the file stops growing for a moment: a last line without `\n` may be a write under way. */
async function settledSize(path: string): Promise<number> {
  let size = (await stat(path)).size;
  for (;;) {
    await new Promise((done) => setTimeout(done, SETTLE_MS));
    const now = (await stat(path)).size;
    if (now === size) return size;
    size = now;
  }
}

/** Handles one line of a taken file: resend, set aside, or keep. Records progress for what is handled. */
async function handleLine(run: Run, taken: string, line: Line & { text: string }, number: number): Promise<void> {
  const { tally } = run;
  const where = `line ${count(number)}`;
  const markDone = () => appendOwned(`${taken}${DONE}`, `${line.offset}\n`, taken);
  const setAside = async (record: string, reason: string) => {
    await appendOwned(`${run.file}${REJECTED}`, record, taken);
    await markDone();
    tally.rejected += 1;
    tally.note(where, `${reason} (set aside in ${run.file}${REJECTED})`);
  };
  if (tally.stopped !== undefined) {
    tally.kept += 1;
    return;
  }
  const { outcome, record } = await run.send(line.text);
  if (outcome.kind === 'delivered') {
    tally.failuresInARow = 0;
    tally.delivered += 1;
    await markDone();
  } else if (outcome.kind === 'rejected') {
    tally.failuresInARow = 0;
    await setAside(record, outcome.reason);
  } else {
    tally.kept += 1;
    tally.note(where, `${outcome.reason} (kept for the next replay)`);
    tally.failuresInARow += 1;
    if (outcome.kind === 'fatal') tally.stopped = outcome.reason;
    else if (tally.failuresInARow >= run.stopAfter) tally.stopped = `${run.stopAfter} failures of the service in a row`;
  }
}

/**
 * Replays one taken file, streaming it, at most `concurrency` records at once. Lines
 * handled by an earlier run are skipped. Returns once every line was read, including any
 * appended by a write that was under way when the file was taken.
 */
async function replayTaken(run: Run, taken: string): Promise<void> {
  const done = await readDone(taken);
  const keptBefore = run.tally.kept;
  const progress = new Progress(run.io, 'replay', (await stat(taken)).size, 'bytes');
  const inFlight = new Set<Promise<void>>();
  let from = 0;
  let number = 0;
  for (;;) {
    let restart: number | undefined;
    for await (const line of readLines(taken, from)) {
      if ('text' in line && !line.terminated && (await settledSize(taken)) > line.end) {
        restart = line.offset; // the line was being written: read it again, whole
        break;
      }
      number += 1;
      from = line.end;
      progress.advance(line.end - line.offset, run.tally.kept + run.tally.rejected === 0 ? '' : `${count(run.tally.kept + run.tally.rejected)} not delivered`);
      if (done.has(line.offset)) continue;
      if (!('text' in line)) {
        run.tally.kept += 1;
        run.tally.note(`line ${count(number)}`, `over 64 MiB: not read; left in ${taken}`);
        continue;
      }
      if (line.text.trim() === '') continue;
      while (inFlight.size >= run.concurrency) await Promise.race(inFlight);
      const task = handleLine(run, taken, line, number).finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
    await Promise.all(inFlight);
    if (restart !== undefined) from = restart;
    else if ((await stat(taken)).size <= from) break;
  }
  progress.finish();
  if (run.tally.kept === keptBefore) await finish(taken);
}

/** `nebuly replay <file>`: resend each dead letter under its key; set aside what is refused; keep what failed for now. */
export async function replay(argv: readonly string[], env: Env, io: Io): Promise<void> {
  const { values, positionals } = parseCommand(argv, OPTIONS, { min: 1, max: 1, command: 'replay' });
  if (values.help === true) {
    io.out(`${USAGE}\n`);
    return;
  }
  const concurrency = readWholeNumber('concurrency', values.concurrency, 1, 64) ?? REPLAY_CONCURRENCY;
  const stopAfter = readWholeNumber('stop-after', values['stop-after'], 1, 1_000_000) ?? REPLAY_STOP_AFTER;
  const shown = positionals[0] ?? '';
  const file = resolve(shown);
  const { client, host } = await connect(values, env);
  const lock = await takeLock(file);
  const tally = new Tally();
  try {
    const files = await takenEarlier(file);
    const taken = await takeFile(file);
    if (taken !== undefined) files.push(taken);
    if (files.length === 0) {
      io.out(`${shown} holds no record: nothing to replay.\n`);
      return;
    }
    const send = async (text: string) => {
      const letter = decodeDeadLetter(text);
      if ('unreadable' in letter) return { outcome: { kind: 'rejected', reason: letter.unreadable } as Outcome, record: `\n${text}\n` };
      const key = keyOf(letter, text);
      const record = encodeDeadLetter({ idempotencyKey: key, conversationId: letter.conversationId, payload: JSON.stringify(letter.body) });
      return { outcome: await resend(client, letter, key, host.shown), record };
    };
    for (const path of files) await replayTaken({ file, send, concurrency, stopAfter, tally, io }, path);
  } finally {
    await lock.release();
  }

  const total = tally.delivered + tally.rejected + tally.kept;
  io.out(
    `Replayed ${shown}: ${count(tally.delivered)} delivered, ${count(tally.rejected)} set aside, ${count(tally.kept)} kept for the next replay, of ${plural(total, 'record')}.\n`,
  );
  for (const problem of tally.problems) io.out(`${problem}\n`);
  const unlisted = tally.rejected + tally.kept - tally.problems.length;
  if (unlisted > 0 && tally.problems.length === LISTED) io.out(`  … and ${count(unlisted)} more\n`);
  if (tally.stopped !== undefined) io.out(`Stopped sending: ${tally.stopped}.\n`);
  if (tally.rejected + tally.kept > 0) {
    const rejected = tally.rejected > 0 ? `; fix or drop the records in ${shown}${REJECTED}` : '';
    throw new CliError(`${plural(tally.rejected + tally.kept, 'record')} not delivered${tally.kept > 0 ? `; run nebuly replay ${shown} again to retry the ones kept` : ''}${rejected}`, EXIT.failed);
  }
}
