import { appendFile, chown, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The files a replay works on. The app's file is never rewritten: it is renamed away
 * (`<file>.taken-<time>-<pid>`, same inode, same owner), and the app's next append
 * creates a new one. What the replay writes beside it (`.done`, `.rejected`) is given the
 * taken file's owner when the replay runs as root, so the app can still read it.
 */
export const TAKEN = '.taken-';
/** Beside a taken file: the byte offset of each line handled, one per line. */
export const DONE = '.done';
/** Beside the app's file: the records the service refused (4xx) or that cannot be read. */
export const REJECTED = '.rejected';

/** The taken files left by earlier replays (not finished), oldest first. */
export async function takenEarlier(file: string): Promise<string[]> {
  const prefix = `${basename(file)}${TAKEN}`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix) && !name.endsWith(DONE))
    .sort()
    .map((name) => join(dirname(file), name));
}

/**
 * Takes the app's file away by renaming it, so that what the app appends from now on goes
 * to a new file, left for the next replay. `undefined` when there is no file, or it is empty.
 */
export async function takeFile(file: string): Promise<string | undefined> {
  try {
    if ((await stat(file)).size === 0) return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // A fixed-width time sorts taken files oldest first.
  const taken = `${file}${TAKEN}${String(Date.now()).padStart(15, '0')}-${process.pid}`;
  await rename(file, taken);
  return taken;
}

/** The offsets of the lines of `taken` handled by earlier runs. */
export async function readDone(taken: string): Promise<Set<number>> {
  let text: string;
  try {
    text = await readFile(`${taken}${DONE}`, 'utf8');
  } catch {
    return new Set();
  }
  // A crash may cut the last entry; a cut number is not an offset any line starts at.
  return new Set(text.split('\n').filter((entry) => /^\d+$/.test(entry)).map(Number));
}

/**
 * Appends to a file the replay owns (progress, rejected records) in one write, giving a
 * new file the owner of `like` when running as root.
 */
export async function appendOwned(path: string, text: string, like: string): Promise<void> {
  let created = false;
  try {
    const handle = await open(path, 'ax', 0o600);
    created = true;
    await handle.write(text);
    await handle.close();
  } catch (error) {
    if (created || (error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await appendFile(path, text, { mode: 0o600 });
    return;
  }
  if (process.getuid?.() === 0) {
    const owner = await stat(like);
    await chown(path, owner.uid, owner.gid);
  }
}

/** Removes a taken file whose every line was handled, and its progress. */
export async function finish(taken: string): Promise<void> {
  await unlink(taken);
  await unlink(`${taken}${DONE}`).catch(() => undefined);
}
