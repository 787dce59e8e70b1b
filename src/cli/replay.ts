import { open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import type { SendConversationParams } from '../schemas/index.js';
import { parseCommand } from './args.js';
import { connect, CONNECTION_USAGE, readWholeNumber, type Env } from './connection.js';
import { cannotRead, CliError, concernsThisRequestOnly, describeError, EXIT } from './failure.js';
import { count, plural, type Io } from './io.js';
import { Progress } from './progress.js';

/** Conversations in flight at once, unless `--concurrency` says otherwise. */
export const REPLAY_CONCURRENCY = 4;
/** How many failures the summary lists. */
const LISTED = 20;

const USAGE = `Usage: nebuly replay <file> [options]

Sends each conversation of a dead-letter file (one request body a line, as
writeDeadLetters from nebuly-client/node writes them) once, then rewrites the file with
only the lines that still failed. Stop the process writing to the file first, or point
it to a new file.

Options:
  --concurrency <n>      conversations in flight at once      (default ${REPLAY_CONCURRENCY})
  -h, --help             show this help

${CONNECTION_USAGE}`;

const OPTIONS = { concurrency: { type: 'string' } } as const;

interface Letter {
  /** The line of the file, from 1. */
  line: number;
  text: string;
  /** Why it is kept: it failed, or was not sent. `undefined` once delivered. */
  kept?: string;
}

async function readLetters(file: string): Promise<{ letters: Letter[]; bytes: number }> {
  let buffer: Buffer;
  try {
    buffer = await readFile(file);
  } catch (error) {
    throw cannotRead(file, error);
  }
  const text = buffer.toString('utf8');
  // A last line without its line break is being written: leave it for the next replay.
  const end = text.lastIndexOf('\n') + 1;
  const letters = text
    .slice(0, end)
    .split('\n')
    .map((line, index) => ({ line: index + 1, text: line.replace(/\r$/, '') }))
    .filter((letter) => letter.text.trim() !== '');
  return { letters, bytes: Buffer.byteLength(text.slice(0, end)) };
}

/** What was appended to the file since it was read, so that the rewrite keeps it. */
async function appendedSince(file: string, bytes: number): Promise<string> {
  const size = (await stat(file)).size;
  if (size <= bytes) return '';
  const handle = await open(file, 'r');
  try {
    const tail = Buffer.alloc(size - bytes);
    await handle.read(tail, 0, tail.length, bytes);
    return tail.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Replaces the file in one step: a temporary file beside it, then a rename. */
async function rewrite(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.replay-tmp`;
  try {
    await writeFile(temporary, content, { encoding: 'utf8', mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** `nebuly replay <file>`: resend each dead letter once; keep only what still failed. */
export async function replay(argv: readonly string[], env: Env, io: Io): Promise<void> {
  const { values, positionals } = parseCommand(argv, OPTIONS, { min: 1, max: 1, command: 'replay' });
  if (values.help === true) {
    io.out(`${USAGE}\n`);
    return;
  }
  const concurrency = readWholeNumber('concurrency', values.concurrency, 1, 64) ?? REPLAY_CONCURRENCY;
  const file = positionals[0] ?? '';
  const { client, host } = await connect(values, env);
  const { letters, bytes } = await readLetters(file);
  if (letters.length === 0) {
    io.out(`${file} holds no conversation: nothing to replay.\n`);
    return;
  }

  const progress = new Progress(io, 'replay', letters.length, 'conversations');
  let failed = 0;
  let stopped = false;
  let next = 0;
  const worker = async () => {
    for (let letter = letters[next++]; letter !== undefined; letter = letters[next++]) {
      if (stopped) {
        letter.kept = 'not sent, after the failure above';
      } else {
        try {
          await client.conversations.send(JSON.parse(letter.text) as SendConversationParams);
        } catch (error) {
          letter.kept = error instanceof SyntaxError ? `not JSON (${error.message})` : describeError(error, host.baseUrl);
          if (!(error instanceof SyntaxError) && !concernsThisRequestOnly(error)) stopped = true;
        }
      }
      if (letter.kept !== undefined) failed += 1;
      progress.advance(1, failed === 0 ? '' : `${count(failed)} not delivered`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, letters.length) }, worker));
  progress.finish();

  const kept = letters.filter((letter) => letter.kept !== undefined);
  const tail = await appendedSince(file, bytes);
  await rewrite(file, kept.map((letter) => `${letter.text}\n`).join('') + tail);

  const delivered = letters.length - kept.length;
  io.out(`Replayed ${file}: ${count(delivered)} delivered, ${count(kept.length)} not delivered, of ${plural(letters.length, 'conversation')}.\n`);
  for (const letter of kept.slice(0, LISTED)) io.out(`  line ${letter.line}: ${letter.kept ?? ''}\n`);
  if (kept.length > LISTED) io.out(`  … and ${count(kept.length - LISTED)} more\n`);
  const added = tail === '' ? '' : ` (and the lines added while it ran)`;
  io.out(`${file} now holds ${plural(kept.length, 'line')}${added}: what was not delivered.\n`);
  if (kept.length > 0) {
    throw new CliError(`${plural(kept.length, 'conversation')} not delivered; run nebuly replay ${file} again to retry them`, EXIT.failed);
  }
}
