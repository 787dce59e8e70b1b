import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines, type Line } from './lines.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nebuly-lines-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function all(content: string | Buffer, start = 0, max?: number): Promise<Line[]> {
  const path = join(dir, `f-${Math.random()}`);
  await writeFile(path, content);
  const lines: Line[] = [];
  for await (const line of readLines(path, start, max)) lines.push(line);
  return lines;
}

describe('readLines', () => {
  it('gives each line with its byte offsets, the last one unterminated when it lacks its \\n', async () => {
    expect(await all('ab\n\néé\ncut')).toEqual([
      { offset: 0, end: 3, text: 'ab', terminated: true },
      { offset: 3, end: 4, text: '', terminated: true },
      { offset: 4, end: 9, text: 'éé', terminated: true },
      { offset: 9, end: 12, text: 'cut', terminated: false },
    ]);
  });

  it('starts at a byte offset', async () => {
    expect(await all('ab\ncd\n', 3)).toEqual([{ offset: 3, end: 6, text: 'cd', terminated: true }]);
  });

  it('joins a line spread over many chunks (a 600 KB line)', async () => {
    const long = 'x'.repeat(600_000);
    const lines = await all(`a\n${long}\nb\n`);
    expect(lines.map((line) => ('text' in line ? line.text.length : -1))).toEqual([1, 600_000, 1]);
  });

  it('skips a line over the limit without holding it, and goes on with the next', async () => {
    const lines = await all(`a\n${'x'.repeat(700_000)}\nb\n${'y'.repeat(700_000)}`, 0, 500_000);
    expect(lines).toEqual([
      { offset: 0, end: 2, text: 'a', terminated: true },
      { offset: 2, end: 700_003, tooLong: true },
      { offset: 700_003, end: 700_005, text: 'b', terminated: true },
      { offset: 700_005, end: 1_400_005, tooLong: true },
    ]);
  });
});
