import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../reference-server/node.js';
import { REFERENCE_PATHS } from '../reference-server/routes.js';
import type { StoredUser } from '../reference-server/stored.js';

const BIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const KEY = 'secret-canary-nebuly-cli-key';
const PROJECT = 'cli-project';
// Each test starts the bin a few times, concurrently with the others; on a busy machine
// one start can take seconds.
const TIMEOUT_MS = 60_000;
const USERS = REFERENCE_PATHS.eligibleUsers;
const CONVERSATION = REFERENCE_PATHS.conversation;

let dir: string;
// Closed after all tests: with concurrent tests, a per-test hook may run at another's end.
const servers: ReferenceServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nebuly-cli-'));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A reference server of its own for one test, so that tests run concurrently: each child
 * process spends most of its time starting up.
 */
async function world() {
  const server = await createReferenceServer({ apiKeys: { [KEY]: PROJECT }, maxRecordedRequests: 10_000 });
  servers.push(server);
  const prefix = randomUUID();

  /** Runs the real bin from its TypeScript source, as a user runs the built one. */
  async function nebuly(args: string[], env: Record<string, string> = {}): Promise<Run> {
    const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('NEBULY_')));
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...base, NEBULY_API_KEY: KEY, NEBULY_BASE_URL: server.url, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    // Whatever happened, the key is never printed, and no failure is a stack trace.
    expect(stdout + stderr).not.toContain(KEY);
    expect(stderr).not.toMatch(/\n\s+at /);
    return { code, stdout, stderr };
  }

  return {
    server,
    nebuly,
    async file(name: string, content: string): Promise<string> {
      const path = join(dir, `${prefix}-${name}`);
      await writeFile(path, content);
      return path;
    },
    stored: () => server.store.listUsers(PROJECT),
    writes: () => server.requests.all().filter((request) => request.method !== 'GET'),
  };
}

const DEPARTMENTS = ['sales', 'support', 'engineering', 'legal', 'finance'];

/** `count` users as CSV rows, and as the reference server would store them. */
function usersCsv(count: number, from = 0): { csv: string; stored: StoredUser[] } {
  const stored: StoredUser[] = [];
  const rows = ['end_user,active_from,active_to,tag.department,tag.country'];
  for (let i = from; i < from + count; i += 1) {
    const department = DEPARTMENTS[i % DEPARTMENTS.length] ?? 'sales';
    const activeTo = i % 7 === 0 ? '2026-12-31' : null;
    rows.push(`user-${i},2026-01-01,${activeTo ?? ''},${department},${i % 2 === 0 ? 'it' : ''}`);
    stored.push({
      end_user: `user-${i}`,
      tags: i % 2 === 0 ? { department, country: 'it' } : { department },
      active_from: '2026-01-01',
      active_to: activeTo,
    });
  }
  return { csv: `${rows.join('\n')}\n`, stored };
}

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
        'carol,2026-01-01',
      ].join('\n'),
    );

    const run = await nebuly(['users', 'sync', path]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('4 bad rows; nothing was sent');
    expect(run.stderr).toContain(`${path}:3, column active_from: must be a Date or an ISO 8601 date or date-time string`);
    expect(run.stderr).toContain(`${path}:6, column end_user: is required`);
    expect(run.stderr).toContain(`${path}:7, column end_user: repeats the end_user of line 2`);
    expect(run.stderr).toContain(`${path}:8: has 2 cells; the header has 4`);
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
    const missingFile = await nebuly(['users', 'sync', join(dir, 'absent.csv')]);
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toBe(`nebuly users sync: cannot read ${join(dir, 'absent.csv')}: no such file\n`);

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

  it('--platform inserts with PUT and updates with POST on the platform-users path; refuses --delete-missing', async () => {
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

    const refused = await nebuly(['users', 'sync', await file('platform-3.csv', usersCsv(1).csv), '--platform', '--delete-missing']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--delete-missing cannot be used with --platform');
  });
});

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
});

function conversation(endUser: string, input = 'Hi'): string {
  const interaction = { input, output: 'Hello!', time_start: '2026-01-01T10:00:00.000Z', time_end: '2026-01-01T10:00:01.000Z' };
  return JSON.stringify({ conversation: { end_user: endUser, interactions: [interaction] } });
}

describe.concurrent('nebuly replay (bin)', { timeout: TIMEOUT_MS }, () => {
  it('resends each line once, keeps only what was not delivered, exits 1 while some remain', async () => {
    const { server, nebuly, file } = await world();
    const lines = [
      conversation('u-1'),
      '{"conversation": ', // cut short
      JSON.stringify({ conversation: { end_user: '', interactions: [] } }), // refused before sending
      conversation('u-2'),
      conversation('u-3', 'x'.repeat(1_100_000)), // over the server's 1 MiB: 413
      conversation('u-4'),
    ];
    const path = await file('dead-letters.jsonl', `${lines.join('\n')}\n`);

    const run = await nebuly(['replay', path]);

    expect(run.code).toBe(1);
    expect(run.stdout).toContain('3 delivered, 3 not delivered, of 6 conversations');
    expect(run.stdout).toMatch(/line 2: not JSON/);
    expect(run.stdout).toMatch(/line 3: Invalid params: conversation.end_user must not be empty/);
    expect(run.stdout).toMatch(/line 5: POST \/event-ingestion\/api\/v2\/events\/trace_conversation answered 413/);
    expect(run.stderr).toContain('replay: 6/6 conversations (3 not delivered)');
    expect(await readFile(path, 'utf8')).toBe(`${[lines[1], lines[2], lines[4]].join('\n')}\n`);
    const delivered = server.store.listInteractions(PROJECT).map((i) => i.end_user);
    expect(delivered.sort()).toEqual(['u-1', 'u-2', 'u-4']);
    expect(server.requests.count({ path: CONVERSATION })).toBe(4); // u-1, u-2, u-4, and the refused u-3

    // Once the rest is fixed, a replay delivers it and leaves the file empty.
    await writeFile(path, `${conversation('u-5')}\n`);
    const again = await nebuly(['replay', path]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('1 delivered, 0 not delivered');
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('a service failure keeps the line and every line after it unsent', async () => {
    const { server, nebuly, file } = await world();
    const lines = [conversation('u-1'), conversation('u-2'), conversation('u-3')];
    const path = await file('outage.jsonl', `${lines.join('\n')}\n`);
    server.faults.add({ status: 503, path: CONVERSATION, times: Infinity });

    const run = await nebuly(['replay', path, '--concurrency', '1', '--max-retries', '0']);

    expect(run.code).toBe(1);
    expect(run.stdout).toContain('line 2: not sent, after the failure above');
    expect(await readFile(path, 'utf8')).toBe(`${lines.join('\n')}\n`);
    expect(server.requests.count({ path: CONVERSATION })).toBe(1);
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe.concurrent('nebuly doctor (bin)', { timeout: TIMEOUT_MS }, () => {
  it('prints the host and its source, that the key is accepted, and the round trip', async () => {
    const { server, nebuly } = await world();
    // The flag beats the environment, which points nowhere.
    const run = await nebuly(['doctor', '--base-url', server.url], { NEBULY_BASE_URL: 'http://127.0.0.1:1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`host:       ${server.url} (from --base-url)`);
    expect(run.stdout).toContain('API key:    from NEBULY_API_KEY (never printed)');
    expect(run.stdout).toContain('key check:  accepted (GET /api/external/eligible-users answered with 0 users)');
    expect(run.stdout).toMatch(/round trip: \d+ ms/);
  });;

  it('a key the service refuses: 401 explained, exit 1, the key not printed', async () => {
    const { nebuly } = await world();
    const run = await nebuly(['doctor'], { NEBULY_API_KEY: 'refused-key-canary' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('key check:  failed');
    expect(run.stderr).toContain('the service rejected the API key (401)');
    expect(run.stdout + run.stderr).not.toContain('refused-key-canary');
  });

  it('an unreachable host: said so, exit 1', async () => {
    const { nebuly } = await world();
    const url = `http://127.0.0.1:${await closedPort()}`;
    const run = await nebuly(['doctor'], { NEBULY_BASE_URL: url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`nebuly doctor: could not reach ${url}`);
  });
});
