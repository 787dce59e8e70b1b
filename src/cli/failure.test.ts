import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cannotRead, EXIT } from './failure.js';

async function readError(path: string): Promise<unknown> {
  return readFile(path).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('cannotRead', () => {
  it('says why a file cannot be read in words, as a usage error (exit 2)', async () => {
    const absent = join(tmpdir(), 'nebuly-no-such-file.jsonl');
    expect(cannotRead(absent, await readError(absent))).toMatchObject({
      message: `cannot read ${absent}: no such file`,
      exitCode: EXIT.usage,
    });
    // replay and users sync both read the file they are given: a directory is said so.
    expect(cannotRead(tmpdir(), await readError(tmpdir())).message).toBe(`cannot read ${tmpdir()}: it is a directory`);
  });
});
