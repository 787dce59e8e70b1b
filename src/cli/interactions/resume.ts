import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { CliError } from '../failure.js';

/**
 * How far an export to a file got, kept beside it (`<file>.progress`) and rewritten after
 * each complete window, once its lines are on disk: `--resume` cuts the file back to
 * `bytes` (the lines of a window cut short) and asks again from the window after the
 * last complete one.
 */
export interface ExportProgress {
  /** The range asked, ISO 8601: a resume must ask the same one. */
  from: string;
  to: string;
  /** Windows complete, from the first. */
  windows: number;
  /** Interactions written in them. */
  items: number;
  /** The file's size at the end of the last complete window. */
  bytes: number;
}

/** Where the progress of an export to `out` is kept. */
export function progressPath(out: string): string {
  return `${out}.progress`;
}

/** Writes the progress whole or not at all: a crash mid-write leaves the previous one. */
export async function saveProgress(out: string, progress: ExportProgress): Promise<void> {
  const path = progressPath(out);
  await writeFile(`${path}.tmp`, `${JSON.stringify(progress)}\n`);
  await rename(`${path}.tmp`, path);
}

/** Forgets the progress: the export is complete. */
export async function clearProgress(out: string): Promise<void> {
  await rm(progressPath(out), { force: true });
}

function isProgress(value: unknown): value is ExportProgress {
  if (typeof value !== 'object' || value === null) return false;
  const { from, to, windows, items, bytes } = value as Record<string, unknown>;
  return typeof from === 'string' && typeof to === 'string' && [windows, items, bytes].every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
}

/**
 * The progress of the interrupted export to `out` of the range `from`-`to`; a usage error
 * when there is none, it cannot be read, or it is of another range.
 */
export async function loadProgress(out: string, from: string, to: string): Promise<ExportProgress> {
  const path = progressPath(out);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new CliError(`--resume: ${path} does not exist, so there is no interrupted export of ${out} to continue (a finished export removes it); run without --resume`);
  }
  let progress: unknown;
  try {
    progress = JSON.parse(text);
  } catch {
    progress = undefined;
  }
  if (!isProgress(progress)) throw new CliError(`--resume: ${path} is not the progress of an export; run without --resume to start again`);
  if (progress.from !== from || progress.to !== to) {
    throw new CliError(`--resume: ${out} is an export from ${progress.from} to ${progress.to}, not of the range given; give the same --from and --to`);
  }
  return progress;
}
