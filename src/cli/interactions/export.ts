import { EXPORT_WINDOW_MS } from '../../schemas/wire-fields.js';
import { parseCommand } from '../args.js';
import { connect, CONNECTION_USAGE, type Env } from '../connection.js';
import { CliError, describeError, EXIT } from '../failure.js';
import { count, type Io } from '../io.js';
import { parseDateFlag } from './dates.js';
import { clearProgress, type ExportProgress, loadProgress, progressPath, saveProgress } from './resume.js';
import { fileSink, type LineSink, stdoutSink } from './sink.js';

const USAGE = `Usage: nebuly interactions export --from DATE --to DATE [--out FILE] [--resume]

Prints every interaction stored from --from (included) to --to (excluded) as JSON Lines,
one interaction a line, asked in windows of 7 days (the service's limit), in order. A
progress line per window goes to stderr.

Options:
  --from DATE            the start, included: 2026-10-01 (midnight UTC) or a date-time
                         with its zone (2026-10-01T09:30:00Z)
  --to DATE              the end, excluded; after --from
  --out FILE             write to FILE instead of stdout; FILE.progress keeps how far
                         it got, until the export is complete
  --resume               continue an interrupted --out FILE after its last complete
                         window (the lines of a window cut short are dropped first)
  -h, --help             show this help

${CONNECTION_USAGE}`;

const OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  out: { type: 'string' },
  resume: { type: 'boolean' },
} as const;

/** Lines are written in chunks of about this many characters, not one write a line. */
const CHUNK_CHARS = 256 * 1024;

/** Writes a window's items as JSON Lines, in chunks. */
async function writeLines(sink: LineSink, items: readonly unknown[]): Promise<void> {
  let chunk = '';
  for (const item of items) {
    chunk += `${JSON.stringify(item)}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      await sink.write(chunk);
      chunk = '';
    }
  }
  if (chunk !== '') await sink.write(chunk);
}

function rate(items: number, ms: number): string {
  return ms <= 0 ? '-' : count(Math.round((items * 1000) / ms));
}

/** `nebuly interactions export`: every interaction of a range, as JSON Lines. */
export async function interactionsExport(argv: readonly string[], env: Env, io: Io): Promise<void> {
  const { values } = parseCommand(argv, OPTIONS, { min: 0, max: 0, command: 'interactions export' });
  if (values.help === true) {
    io.out(`${USAGE}\n`);
    return;
  }
  if (values.from === undefined || values.to === undefined) {
    throw new CliError(`${values.from === undefined ? '--from' : '--to'} is required. Run nebuly interactions export --help for its usage.`);
  }
  const fromMs = parseDateFlag('--from', values.from);
  const toMs = parseDateFlag('--to', values.to);
  const from = new Date(fromMs).toISOString();
  const to = new Date(toMs).toISOString();
  if (toMs <= fromMs) throw new CliError(`--to (${to}) must be after --from (${from}): the range is from --from, included, to --to, excluded`);
  const out = values.out;
  if (values.resume === true && out === undefined) throw new CliError('--resume continues an export to a file: give its --out FILE');

  const resumed: ExportProgress | undefined = values.resume === true && out !== undefined ? await loadProgress(out, from, to) : undefined;
  const totalWindows = Math.ceil((toMs - fromMs) / EXPORT_WINDOW_MS);
  const done = resumed?.windows ?? 0;
  let items = resumed?.items ?? 0;
  if (done >= totalWindows) {
    io.err(`${out ?? ''}: all ${totalWindows} windows were already complete.\n`);
    if (out !== undefined) await clearProgress(out);
    return;
  }
  const { client, host } = await connect(values, env);
  const sink = out === undefined ? stdoutSink() : await fileSink(out, resumed?.bytes);
  // A file's place is kept from the start: an export stopped in its first window resumes too.
  if (out !== undefined && resumed === undefined) await saveProgress(out, { from, to, windows: 0, items: 0, bytes: 0 });
  const start = new Date(fromMs + done * EXPORT_WINDOW_MS).toISOString();
  if (resumed !== undefined) io.err(`Resuming after window ${done} of ${totalWindows} (${count(items)} interactions): from ${start}.\n`);
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  const began = Date.now();
  let windows = done;
  try {
    for await (const window of client.interactions.export({ from: start, to }, { signal: controller.signal }).windows()) {
      await writeLines(sink, window.items);
      items += window.items.length;
      windows = done + window.index + 1;
      if (out !== undefined) {
        // The lines first, then the record that they are there: a crash between the two
        // redoes this window, it never skips it.
        await sink.sync();
        await saveProgress(out, { from, to, windows, items, bytes: sink.bytes });
      }
      const elapsed = Date.now() - began;
      io.err(`window ${windows}/${totalWindows} (${window.start.slice(0, 10)}): ${count(items)} interactions, ${rate(items - (resumed?.items ?? 0), elapsed)}/s\n`);
    }
  } catch (error) {
    const where = `after ${windows} of ${totalWindows} windows (${count(items)} interactions)`;
    const resume = out === undefined ? '' : `; run the same command with --resume to continue (${progressPath(out)} keeps the place)`;
    if (controller.signal.aborted) throw new CliError(`interrupted ${where}${resume}`, EXIT.failed);
    throw new CliError(`stopped ${where}: ${describeError(error, host.shown)}${resume}`, EXIT.failed);
  } finally {
    process.off('SIGINT', interrupt);
    await sink.close();
  }
  if (out !== undefined) await clearProgress(out);
  io.err(`Exported ${count(items)} interactions in ${totalWindows} windows${out === undefined ? '' : ` to ${out}`}.\n`);
}
