import { hostname } from 'node:os';
import { open, readFile, unlink } from 'node:fs/promises';
import { CliError, EXIT } from '../failure.js';

/** A held lock: release it when done. */
export interface Lock {
  readonly path: string;
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<file>.replay-lock`, created exclusively (`O_EXCL`), so that two replays of one
 * file never run at once. It holds the owner's pid and host; a lock whose process is
 * gone (killed, crashed) on this host is taken over.
 *
 * @example
 * ```ts
 * const lock = await takeLock('dead-letters.jsonl');
 * try { … } finally { await lock.release(); }
 * ```
 */
export async function takeLock(file: string): Promise<Lock> {
  const path = `${file}.replay-lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname() }));
      await handle.close();
      return { path, release: () => unlink(path).catch(() => undefined) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw lockError(file, path, error);
    }
    const owner = await readOwner(path);
    if (owner !== undefined && (owner.host !== hostname() || isAlive(owner.pid))) {
      throw new CliError(
        `another nebuly replay (pid ${owner.pid} on ${owner.host}) is working on ${file}; wait for it to end (or, if it is gone, remove ${path})`,
        EXIT.failed,
      );
    }
    // Its process is gone: the lock is stale.
    await unlink(path).catch(() => undefined);
  }
}

async function readOwner(path: string): Promise<{ pid: number; host: string } | undefined> {
  try {
    const { pid, host } = JSON.parse(await readFile(path, 'utf8')) as { pid?: unknown; host?: unknown };
    return typeof pid === 'number' && typeof host === 'string' ? { pid, host } : undefined;
  } catch {
    // Being written this instant, or damaged: treat as held by a live process of this host.
    return { pid: 0, host: hostname() };
  }
}

function lockError(file: string, path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') return new CliError(`another nebuly replay is working on ${file} (${path} exists)`, EXIT.failed);
  return new CliError(`cannot create the lock ${path}: ${code ?? String(error)}`, EXIT.failed);
}
