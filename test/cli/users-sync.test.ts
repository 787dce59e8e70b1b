import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { REFERENCE_PATHS } from '../../src/reference-server/routes.js';
import type { StoredUser } from '../../src/reference-server/stored.js';
import { scratchPath, TIMEOUT_MS, USERS, usersCsv, useWorlds, world } from './world.js';

useWorlds();

describe.concurrent('nebuly users sync (bin)', { timeout: TIMEOUT_MS }, () => {
  it('dry-runs, applies and reruns a 10,000-row CSV: batches of 500, then nothing to change', async () => {
    const { server, nebuly, file, stored, writes } = await world();
    const { csv, stored: expected } = usersCsv(10_000);
    const path = await file('ten-thousand.csv', csv);

    const dry = await nebuly(['users', 'sync', path, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('to insert: 10,000');
    expect(dry.stdout).toContain('+ user-0\n');
    expect(dry.stdout).toContain('… and 9,980 more');
    expect(dry.stdout).toContain('Dry run: nothing was sent.');
    expect(writes()).toEqual([]);
    expect(stored()).toEqual([]);

    const applied = await nebuly(['users', 'sync', path]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Applied: 10,000 inserted, 0 updated.');
    expect(applied.stderr).toContain('insert: 10,000/10,000 users'); // plain progress lines off a terminal
    expect(stored()).toEqual(expected);
    expect(server.requests.count({ method: 'POST', path: USERS })).toBe(20);
    expect(server.requests.all({ method: 'POST', path: USERS }).map((r) => JSON.parse(r.body).users.length)).toEqual(
      Array(20).fill(500),
    );

    server.requests.clear();
    const rerun = await nebuly(['users', 'sync', path]);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('unchanged: 10,000');
    expect(rerun.stdout).toContain('Nothing to change');
    expect(writes()).toEqual([]);
  });

  it('inserts, updates and, with --delete-missing, deletes to match the file exactly', async () => {
    const { server, nebuly, file, stored } = await world();
    await nebuly(['users', 'sync', await file('before.csv', usersCsv(1_000).csv)]);
    // 100 gone, 50 new, 300 changed (a tag, an access end).
    const next = usersCsv(950, 100);
    const lines = next.csv.trimEnd().split('\n');
    for (let row = 1; row <= 300; row += 1) lines[row] = (lines[row] ?? '').replace(/,2026-01-01,[^,]*,/, ',2026-01-01,2027-06-30,');
    const path = await file('after.csv', `${lines.join('\n')}\n`);
    server.requests.clear();

    const run = await nebuly(['users', 'sync', path, '--delete-missing']);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/to insert: 50\n\s+to update: 300\n\s+unchanged: 600\n\s+to delete: 100\n/);
    expect(run.stdout).toContain('~ user-100: active_to (none) → 2027-06-30');
    expect(run.stdout).toContain('- user-0\n');
    expect(run.stdout).toContain('Applied: 50 inserted, 300 updated, 100 deleted.');
    const byId = (users: StoredUser[]) => new Map(users.map((user) => [user.end_user, user]));
    const want = byId(next.stored.map((user, index) => (index < 300 ? { ...user, active_to: '2027-06-30' } : user)));
    expect(byId(stored())).toEqual(want);
    expect(server.requests.count({ method: 'DELETE', path: USERS })).toBe(1);
  });

  it('a refused batch: says what was and was not applied, exits 1, and a rerun completes it', async () => {
    const { server, nebuly, file, stored } = await world();
    const { csv, stored: expected } = usersCsv(1_200);
    const path = await file('partial.csv', csv);
    server.faults.add({ status: 400, method: 'POST', path: USERS, times: 1 });

    const failed = await nebuly(['users', 'sync', path]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('Applied: 700 inserted, 0 updated.');
    expect(failed.stdout).toMatch(/Not applied:\n\s+500 to insert:\n\s+500 users: batch 1\/3: POST \/api\/external\/eligible-users answered 400/);
    expect(failed.stdout).toContain('Run the same command again');
    expect(failed.stderr).toContain('nebuly users sync: 500 of 1,200 changes not applied');
    expect(stored()).toHaveLength(700);

    const rerun = await nebuly(['users', 'sync', path]);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('to insert: 500');
    expect(new Set(stored().map((u) => u.end_user))).toEqual(new Set(expected.map((u) => u.end_user)));
  });

  it('stops at a failure that would fail every batch, and lists the rest as not sent', async () => {
    const { server, nebuly, file } = await world();
    const path = await file('stop.csv', usersCsv(1_200).csv);
    server.faults.add({ status: 503, method: 'POST', path: USERS, times: Infinity });

    const run = await nebuly(['users', 'sync', path, '--max-retries', '0']);

    expect(run.code).toBe(1);
    expect(run.stdout).toContain('500 users: batch 1/3: POST /api/external/eligible-users answered 503');
    expect(run.stdout).toContain('700 users: batch 2/3 on: not sent, after the failure above');
    expect(server.requests.count({ method: 'POST', path: USERS })).toBe(1);
  });

  it('bad rows: each reported by line and column, exit 2, and nothing sent', async () => {
    const { server, nebuly, file } = await world();
    const path = await file(
      'bad.csv',
      [
        'end_user,active_from,active_to,tag.team',
        'alice,2026-01-01,,a',
        'bob,01/02/2026,,b',
        '"multi',
        'line",2026-01-01,,c',
        ',2026-01-01,,d',
        'alice,2026-01-01,,e',
        'dave,2026-01-01T09:30:00,,f',
        'erin,2026-03-01,2026-02-01,g',
        'carol,2026-01-01',
      ].join('\n'),
    );

    const run = await nebuly(['users', 'sync', path]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('6 bad rows; nothing was sent');
    expect(run.stderr).toContain(
      `${path}:3, column active_from: must be an ISO 8601 date (2026-01-01) or date-time with \`Z\` or an offset (2026-01-01T09:30:00Z)`,
    );
    expect(run.stderr).toContain(`${path}:6, column end_user: is required`);
    expect(run.stderr).toContain(`${path}:7, column end_user: repeats the end_user of line 2`);
    expect(run.stderr).toContain(`${path}:8, column active_from: has no time zone: add \`Z\` for UTC or an offset such as \`+02:00\``);
    expect(run.stderr).toContain(`${path}:9, column active_to: must not be before \`active_from\``);
    expect(run.stderr).toContain(`${path}:10: has 2 cells; the header has 4`);
    expect(run.stderr).not.toContain(':4'); // the two-line row is fine
    expect(server.requests.count()).toBe(0);
  });

  it('a malformed CSV: exit 2 with the line, nothing sent', async () => {
    const { server, nebuly, file } = await world();
    const run = await nebuly(['users', 'sync', await file('malformed.csv', 'end_user,active_from\nalice,"2026-01-01"x\n')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/malformed\.csv:2: malformed CSV: Invalid Closing Quote/);
    expect(server.requests.count()).toBe(0);
  });

  it('an unreadable file, a missing key, a bad key: one clear line each, non-zero exit', async () => {
    const { nebuly, file, stored } = await world();
    const missingFile = await nebuly(['users', 'sync', scratchPath('absent.csv')]);
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toBe(`nebuly users sync: cannot read ${scratchPath('absent.csv')}: no such file\n`);

    const path = await file('one.csv', usersCsv(1).csv);
    const noKey = await nebuly(['users', 'sync', path], { NEBULY_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toBe('nebuly users sync: no API key: set NEBULY_API_KEY, or pass --api-key-file <path>\n');

    const badKey = await nebuly(['users', 'sync', path], { NEBULY_API_KEY: 'wrong-key-canary' });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain('could not read the eligible users, so nothing was sent: the service rejected the API key (401)');
    expect(badKey.stdout + badKey.stderr).not.toContain('wrong-key-canary');
    expect(stored()).toEqual([]);
  });

  it('--platform inserts with PUT, updates with POST and, with --delete-missing, deletes with DELETE on the platform-users path', async () => {
    const { nebuly, file, stored, writes } = await world();
    await nebuly(['users', 'sync', await file('platform-1.csv', usersCsv(3).csv), '--platform']);
    const changed = usersCsv(4).csv.replace('user-1,2026-01-01,,support', 'user-1,2026-01-01,,legal');
    const run = await nebuly(['users', 'sync', await file('platform-2.csv', changed), '--platform']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Applied: 1 inserted, 1 updated.');
    const calls = writes().map((r) => `${r.method} ${r.path} ${JSON.parse(r.body).users.map((u: StoredUser) => u.end_user).join(',')}`);
    expect(calls).toEqual([
      `PUT ${REFERENCE_PATHS.platformUsers} user-0,user-1,user-2`,
      `PUT ${REFERENCE_PATHS.platformUsers} user-3`,
      `POST ${REFERENCE_PATHS.platformUsers} user-1`,
    ]);
    expect(stored().find((u) => u.end_user === 'user-1')?.tags).toEqual({ department: 'legal' });

    const pruned = await nebuly(['users', 'sync', await file('platform-3.csv', usersCsv(1).csv), '--platform', '--delete-missing']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('Applied: 0 inserted, 0 updated, 3 deleted.');
    const deletes = writes().filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => `${r.method} ${r.path} ${(JSON.parse(r.body) as { users: string[] }).users.join(',')}`)).toEqual([
      `DELETE ${REFERENCE_PATHS.platformUsers} user-1,user-2,user-3`,
    ]);
    expect(stored().map((u) => u.end_user)).toEqual(['user-0']);
  });

  it('refuses a file that is not UTF-8 (Latin-1, UTF-16 with a BOM), naming the encoding; nothing sent', async () => {
    const { server, nebuly, file } = await world();
    const latin1Path = await file('latin1.csv', '');
    await writeFile(latin1Path, Buffer.from('end_user,active_from,tag.city\nm\xfcller,2026-01-01,K\xf6ln\n', 'latin1'));
    const latin1 = await nebuly(['users', 'sync', latin1Path]);
    expect(latin1.code).toBe(2);
    expect(latin1.stderr).toMatch(/latin1\.csv is not UTF-8: line 2 has the byte 0xFC.*Latin-1 \/ Windows-1252\): save it as UTF-8/);

    const path = await file('utf16.csv', '');
    await writeFile(path, Buffer.from('\ufeffend_user,active_from\nu-1,2026-01-01\n', 'utf16le'));
    const utf16 = await nebuly(['users', 'sync', path]);
    expect(utf16.code).toBe(2);
    expect(utf16.stderr).toContain('utf16.csv is UTF-16 (little-endian) (it starts with a byte-order mark), not UTF-8');
    expect(server.requests.count({ method: 'POST' })).toBe(0);
  });
});
