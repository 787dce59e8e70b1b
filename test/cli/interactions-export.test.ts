import { appendFile, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference-server/node.js';
import { REFERENCE_PATHS } from '../../src/reference-server/routes.js';
import { PROJECT, scratchPath, TIMEOUT_MS, useWorlds, world } from './world.js';

useWorlds();

const DAY = 86_400_000;
const T = Date.parse('2026-10-01T00:00:00.000Z');

/** Stores `count` interactions spread evenly over `days` days from 2026-10-01, straight into the server's store. */
function seed(server: ReferenceServer, count: number, days: number): string[] {
  const inputs: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = new Date(T + Math.floor((index * days * DAY) / count)).toISOString();
    const input = `question ${index}`;
    inputs.push(input);
    server.store.addInteraction(PROJECT, {
      interaction: { conversation_id: `c-${index % 7}`, end_user: `user-${index % 3}`, input, output: `answer ${index}`, time_start: start, time_end: start },
      traces: [],
    });
  }
  return inputs;
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { input: string; interaction_id: string });

// Each test starts the bin two to four times, one after the other.
describe('nebuly interactions export (bin)', { timeout: 3 * TIMEOUT_MS }, () => {
  it('prints every interaction of the range once, in order, as JSON Lines on stdout, with a progress line per window on stderr', async () => {
    const { server, nebuly } = await world();
    const inputs = seed(server, 300, 20);
    const run = await nebuly(['interactions', 'export', '--from', '2026-10-01', '--to', '2026-10-21']);

    expect(run.code).toBe(0);
    expect(lines(run.stdout).map((line) => line.input)).toEqual(inputs);
    expect(run.stderr).toMatch(/^window 1\/3 \(2026-10-01\): [\d,]+ interactions, [\d,-]+\/s\nwindow 2\/3 \(2026-10-08\): [\d,]+ interactions, [\d,-]+\/s\nwindow 3\/3 \(2026-10-15\): 300 interactions, [\d,-]+\/s\nExported 300 interactions in 3 windows\.\n$/);
    const asked = server.requests.all({ path: REFERENCE_PATHS.exportInteractions });
    expect(asked).toHaveLength(3);
  });

  it('refuses --to before --from and a date that does not parse: exit 2, nothing asked', async () => {
    const { server, nebuly } = await world();
    const backwards = await nebuly(['interactions', 'export', '--from', '2026-10-08', '--to', '2026-10-01']);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toBe('nebuly interactions export: --to (2026-10-01T00:00:00.000Z) must be after --from (2026-10-08T00:00:00.000Z): the range is from --from, included, to --to, excluded\n');
    const garbled = await nebuly(['interactions', 'export', '--from', 'last tuesday', '--to', '2026-10-01']);
    expect(garbled.code).toBe(2);
    expect(garbled.stderr).toContain('--from "last tuesday" is not a date: write a day (2026-10-01, midnight UTC) or a date-time with its zone (2026-10-01T09:30:00Z)');
    expect(server.requests.all()).toEqual([]);
  });

  it('--resume continues an interrupted --out file after its last complete window: every interaction once, a torn window dropped', async () => {
    const { server, nebuly } = await world();
    const inputs = seed(server, 200, 30);
    // An interaction in the third window that the client cannot read (a tag that is no
    // string): the export stops there, as it would on any failure.
    const broken = new Date(T + 15 * DAY).toISOString();
    server.store.addInteraction(PROJECT, {
      interaction: { conversation_id: 'c-bad', end_user: 'bad-user', input: 'bad', output: 'bad', time_start: broken, time_end: broken, tags: { score: 5 as unknown as string } },
      traces: [],
    });
    const out = scratchPath(`resume-${process.pid}-${Date.now()}.jsonl`);
    const args = ['interactions', 'export', '--from', '2026-10-01', '--to', '2026-10-31', '--out', out];

    const first = await nebuly(args);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('stopped after 2 of 5 windows');
    expect(first.stderr).toContain(`run the same command with --resume to continue (${out}.progress keeps the place)`);
    const progress = JSON.parse(await readFile(`${out}.progress`, 'utf8')) as { windows: number; bytes: number; items: number };
    expect(progress).toMatchObject({ windows: 2, bytes: (await stat(out)).size });
    expect(lines(await readFile(out, 'utf8')).map((line) => line.input)).toEqual(inputs.slice(0, progress.items));
    // A crash in the middle of the next window leaves part of it behind, a line cut short included.
    await appendFile(out, `${JSON.stringify({ input: inputs[progress.items] })}\n{"input": "question`);

    server.store.deleteInteractions(PROJECT, [{ kind: 'user', values: ['bad-user'] }]);
    server.requests.clear();
    const resumed = await nebuly([...args, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/^Resuming after window 2 of 5 \([\d,]+ interactions\): from 2026-10-15T00:00:00\.000Z\.\nwindow 3\/5/);
    expect(server.requests.count({ path: REFERENCE_PATHS.exportInteractions })).toBe(3);
    expect(lines(await readFile(out, 'utf8')).map((line) => line.input)).toEqual(inputs);
    await expect(stat(`${out}.progress`)).rejects.toThrow();

    const again = await nebuly([...args, '--resume']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('does not exist, so there is no interrupted export');
  });

  it('--resume refuses another range, and stdout', async () => {
    const { server, nebuly } = await world();
    seed(server, 10, 10);
    const out = scratchPath(`range-${process.pid}-${Date.now()}.jsonl`);
    server.faults.add({ path: REFERENCE_PATHS.exportInteractions, status: 500, times: 1 });
    const failed = await nebuly(['interactions', 'export', '--from', '2026-10-01', '--to', '2026-10-11', '--out', out, '--max-retries', '0']);
    expect(failed.code).toBe(1);
    const other = await nebuly(['interactions', 'export', '--from', '2026-10-02', '--to', '2026-10-11', '--out', out, '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`is an export from 2026-10-01T00:00:00.000Z to 2026-10-11T00:00:00.000Z, not of the range given`);
    const toStdout = await nebuly(['interactions', 'export', '--from', '2026-10-01', '--to', '2026-10-11', '--resume']);
    expect(toStdout.stderr).toContain('--resume continues an export to a file: give its --out FILE');
  });
});
