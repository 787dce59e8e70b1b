import { describe, expect, it } from 'vitest';
import { TIMEOUT_MS, useWorlds, world } from './world.js';

useWorlds();

describe.concurrent('nebuly users export (bin)', { timeout: TIMEOUT_MS }, () => {
  it('round trip: what export prints, sync reads back as no change, in CSV and in JSON', async () => {
    const { server, nebuly, file, stored, writes } = await world();
    const csv = [
      'end_user,active_from,active_to,tag.note,tag.team',
      '"comma, user",2026-01-01,2026-06-30T12:00:00Z,"said ""hi""",a',
      'empty-tag,2026-02-01,,"",b',
      'no-tags,2026-03-01T08:30:00+02:00,,,',
      '"line',
      'break",2026-04-01,,"two',
      'lines",',
    ].join('\n');
    await nebuly(['users', 'sync', await file('tricky.csv', `${csv}\n`)]);
    const original = stored();
    expect(original.find((u) => u.end_user === 'empty-tag')?.tags).toEqual({ note: '', team: 'b' });

    const exportedCsv = await nebuly(['users', 'export']);
    expect(exportedCsv.code).toBe(0);
    expect(exportedCsv.stdout).toBe(`${csv}\n`);
    const exportedJson = await nebuly(['users', 'export', '--format', 'json']);
    expect(JSON.parse(exportedJson.stdout)).toEqual(
      original.map(({ active_to, ...user }) => (active_to === null ? user : { ...user, active_to })),
    );

    server.requests.clear();
    for (const [name, content] of [['back.csv', exportedCsv.stdout], ['back.json', exportedJson.stdout]] as const) {
      const back = await nebuly(['users', 'sync', await file(name, content), '--delete-missing']);
      expect(back.code).toBe(0);
      expect(back.stdout).toContain('Nothing to change');
    }
    expect(writes()).toEqual([]);
    expect(stored()).toEqual(original);
  });

  it('--safe-formulas: a cell a spreadsheet would run is prefixed with a quote; without it, written as is', async () => {
    const { server, nebuly } = await world();
    server.store.insertUsers('cli-project', [
      { end_user: '=HYPERLINK("http://evil.test")', tags: { note: '+1', team: '@ops', plain: 'a-b' }, active_from: '2026-01-01' },
      { end_user: '-2', tags: { note: 'fine', team: 'x', plain: '\t=1' }, active_from: '2026-01-01' },
    ]);
    const safe = await nebuly(['users', 'export', '--safe-formulas']);
    expect(safe.code).toBe(0);
    expect(safe.stdout.split('\n').slice(0, 3)).toEqual([
      'end_user,active_from,active_to,tag.note,tag.plain,tag.team',
      `"'=HYPERLINK(""http://evil.test"")",2026-01-01,,'+1,a-b,'@ops`,
      "'-2,2026-01-01,,fine,'\t=1,x",
    ]);
    const plain = await nebuly(['users', 'export']);
    expect(plain.stdout.split('\n')[1]).toBe('"=HYPERLINK(""http://evil.test"")",2026-01-01,,+1,a-b,@ops');
    const json = await nebuly(['users', 'export', '--format', 'json', '--safe-formulas']);
    expect(json.code).toBe(2);
  });
});
