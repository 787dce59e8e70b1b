import { chown, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeDeadLetter } from '../../src/utils/dead-letter-line.js';
import { deadLetterBody } from './fixtures/dead-letter-body.js';
import { CONVERSATION, conversation, PROJECT, run, TIMEOUT_MS, useWorlds, world } from './world.js';

useWorlds();

const APPENDER = fileURLToPath(new URL('./fixtures/append-dead-letters.ts', import.meta.url));

/** A record as writeDeadLetters writes it. */
function record(endUser: string, size = 2): string {
  return encodeDeadLetter({ idempotencyKey: `key-${endUser}`, conversationId: endUser, payload: deadLetterBody(endUser, size) });
}

/** The files beside `path` whose name starts with its name. */
async function siblings(path: string): Promise<string[]> {
  const name = basename(path);
  return (await readdir(dirname(path))).filter((entry) => entry.startsWith(name)).map((entry) => entry.slice(name.length)).sort();
}

describe.concurrent('nebuly replay (bin)', { timeout: TIMEOUT_MS }, () => {
  it('resends each record under its key, sets aside what is refused, and old-format lines still replay', async () => {
    const { server, nebuly, file } = await world();
    const content = [
      record('u-1'),
      '\n{"conversation": ', // cut short by a crash
      `\n${JSON.stringify({ conversation: { end_user: '', interactions: [] } })}\n`, // refused before sending
      `${conversation('u-2')}\n`, // the first format: a bare body
      record('u-3', 1_100_000), // over the server's 1 MiB: 413
      record('u-4'),
    ].join('');
    const path = await file('dead-letters.jsonl', content);

    const result = await nebuly(['replay', path]);

    expect(result.code).toBe(1);
    expect(result.stdout).toContain('3 delivered, 3 set aside, 0 kept for the next replay, of 6 records');
    expect(result.stdout).toMatch(/line 4: not JSON .*a line cut short/);
    expect(result.stdout).toMatch(/line 5: Invalid params: conversation.end_user must not be empty/);
    expect(result.stdout).toMatch(/line 8: POST \/event-ingestion\/api\/v2\/events\/trace_conversation answered 413/);
    const stored = server.store.listInteractions(PROJECT);
    expect(stored.map((interaction) => interaction.end_user).sort()).toEqual(['u-1', 'u-2', 'u-4']);
    expect(stored.find((interaction) => interaction.end_user === 'u-1')?.idempotency_key).toBe('key-u-1');
    // A line of the first format gets a key derived from it, the same on every replay.
    expect(stored.find((interaction) => interaction.end_user === 'u-2')?.idempotency_key).toMatch(/^dead-letter-[0-9a-f]{32}$/);

    // The app's file was taken away, not rewritten; what is left is the rejected file.
    expect(await siblings(path)).toEqual(['.rejected']);
    const rejected = (await readFile(`${path}.rejected`, 'utf8')).split('\n').filter((line) => line !== '');
    expect(rejected).toHaveLength(3);
    expect(JSON.parse(rejected.find((line) => line.includes('u-3')) ?? '{}')).toMatchObject({ idempotency_key: 'key-u-3' });

    // A record set aside is never retried by a later replay of the file.
    const again = await nebuly(['replay', path]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('holds no record: nothing to replay');
  });

  it('a record of tags sent after the fact goes to the tags endpoint under its key', async () => {
    const { server, nebuly, file } = await world();
    const time_start = '2026-05-01T10:00:00.000Z';
    server.store.addConversation(PROJECT, { conversation: { end_user: 'u-t', interactions: [{ input: 'q', output: 'a', time_start, time_end: time_start, tags: { plan: 'pro' } }] } });
    const payload = JSON.stringify({ tags: { csat: '5' }, metadata: { end_user: 'u-t', time_start, input: 'q', output: 'a' } });
    const path = await file('dead-letters.jsonl', encodeDeadLetter({ idempotencyKey: 'key-tags', conversationId: 'c-t', payload }));

    const result = await nebuly(['replay', path]);

    expect(result.stdout).toContain('1 delivered, 0 set aside, 0 kept for the next replay, of 1 record.');
    expect(server.store.listInteractions(PROJECT).map((interaction) => interaction.tags)).toEqual([{ plan: 'pro', csat: '5' }]);
  });

  it('a record that keeps failing (5xx) does not block the later ones; it is kept and the next replay sends it', async () => {
    const { server, nebuly, file } = await world();
    const path = await file('outage.jsonl', [record('u-1'), record('u-2'), record('u-3')].join(''));
    server.faults.add({ status: 503, path: CONVERSATION, times: 1 });

    const first = await nebuly(['replay', path, '--concurrency', '1', '--max-retries', '0']);

    expect(first.code).toBe(1);
    expect(first.stdout).toContain('2 delivered, 0 set aside, 1 kept for the next replay');
    expect(first.stdout).toMatch(/line 2: .*503.*\(kept for the next replay\)/);
    expect((await siblings(path)).some((name) => /^\.taken-\d+-\d+\.done$/.test(name))).toBe(true);

    const second = await nebuly(['replay', path]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('1 delivered, 0 set aside, 0 kept for the next replay, of 1 record');
    expect(server.store.listInteractions(PROJECT).map((interaction) => interaction.end_user).sort()).toEqual(['u-1', 'u-2', 'u-3']);
    expect(server.requests.count({ path: CONVERSATION })).toBe(4); // each record delivered once, u-1 after one 503
    expect(await siblings(path)).toEqual([]);
  });

  it('stops sending after --stop-after failures of the service in a row, keeping the rest', async () => {
    const { server, nebuly, file } = await world();
    const path = await file('down.jsonl', Array.from({ length: 6 }, (_, index) => record(`u-${index}`)).join(''));
    server.faults.add({ status: 503, path: CONVERSATION, times: Infinity });

    const result = await nebuly(['replay', path, '--concurrency', '1', '--max-retries', '0', '--stop-after', '2']);

    expect(result.code).toBe(1);
    expect(result.stdout).toContain('0 delivered, 0 set aside, 6 kept for the next replay');
    expect(result.stdout).toContain('Stopped sending: 2 failures of the service in a row.');
    expect(server.requests.count({ path: CONVERSATION })).toBe(2);
  });

  it('a host that is not the service (404) stops the replay at once, keeping every record', async () => {
    const { server, nebuly, file } = await world();
    const path = await file('wrong-host.jsonl', [record('u-1'), record('u-2'), record('u-3')].join(''));

    const result = await nebuly(['replay', path, '--concurrency', '1'], { NEBULY_BASE_URL: `${server.url}/not-the-api` });

    expect(result.code).toBe(1);
    expect(result.stdout).toContain('0 delivered, 0 set aside, 3 kept for the next replay');
    expect(result.stdout).toMatch(/Stopped sending: .*answered 404/);
    expect(server.requests.count()).toBe(1);
  });

  it('loses nothing while other processes append during the replay, and sends nothing twice', async () => {
    const { server, start, nebuly, file } = await world();
    const path = await file('busy.jsonl', Array.from({ length: 20 }, (_, index) => record(`before-${index}`)).join(''));
    server.faults.add({ delayMs: 30, path: CONVERSATION, times: Infinity });

    const apps = ['a', 'b', 'c'].map((prefix) => run(APPENDER, [path, prefix, '15', '200', '5']));
    const replaying = start(['replay', path, '--concurrency', '2']);
    await Promise.all(apps.map((app) => app.done));
    await replaying.done;
    server.faults.clear();
    const last = await nebuly(['replay', path]);

    expect(last.code).toBe(0);
    const stored = server.store.listInteractions(PROJECT).map((interaction) => interaction.end_user);
    expect(stored).toHaveLength(20 + 45);
    expect(new Set(stored).size).toBe(stored.length);
    expect(server.requests.count({ path: CONVERSATION })).toBe(65);
  });

  it('two replays at once: one runs, the other says so; no record is sent twice', async () => {
    const { server, start, file } = await world();
    const path = await file('twice.jsonl', Array.from({ length: 10 }, (_, index) => record(`u-${index}`)).join(''));
    server.faults.add({ delayMs: 150, path: CONVERSATION, times: Infinity });

    const runs = await Promise.all([start(['replay', path, '--concurrency', '1']).done, start(['replay', path, '--concurrency', '1']).done]);

    expect(server.requests.count({ path: CONVERSATION })).toBe(10);
    expect(server.store.listInteractions(PROJECT)).toHaveLength(10);
    const refused = runs.filter((result) => result.code !== 0);
    for (const result of refused) expect(result.stderr).toMatch(/another nebuly replay \(pid \d+ on .*\) is working on/);
  });

  it('a replay killed mid-run leaves its progress: the next one sends only what was not delivered', async () => {
    const { server, start, nebuly, file } = await world();
    const path = await file('killed.jsonl', Array.from({ length: 12 }, (_, index) => record(`u-${index}`)).join(''));
    server.faults.add({ delayMs: 100, path: CONVERSATION, times: Infinity });

    const first = start(['replay', path, '--concurrency', '1']);
    await expect.poll(() => server.store.listInteractions(PROJECT).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    first.child.kill('SIGKILL');
    await first.done;
    server.faults.clear();
    const delivered = server.store.listInteractions(PROJECT).length;

    const second = await nebuly(['replay', path]); // the stale lock of the killed run is taken over

    expect(second.code).toBe(0);
    const stored = server.store.listInteractions(PROJECT).map((interaction) => interaction.end_user);
    expect(stored).toHaveLength(12);
    expect(new Set(stored).size).toBe(12);
    // At most the one in flight when it was killed is sent again, and the server stores it once (same key).
    expect(server.requests.count({ path: CONVERSATION })).toBeLessThanOrEqual(12 + 1);
    expect(second.stdout).toMatch(new RegExp(`(${12 - delivered}|${12 - delivered + 1}) delivered`));
    expect(await siblings(path)).toEqual([]);
  });

  it('a record cut by a killed writer does not swallow the next: the reader resyncs at the next record', async () => {
    const { server, nebuly, file } = await world();
    const path = await file('cut.jsonl', '');
    // The writer is killed while appending: SIGKILL mid-stream of records, then the cut of a
    // torn write (the last bytes lost), then another process appends after it.
    const writer = run(APPENDER, [path, 'first', '200', '5000', '1']);
    await expect.poll(async () => (await stat(path)).size, { timeout: 20_000 }).toBeGreaterThan(50_000);
    writer.child.kill('SIGKILL');
    await writer.done;
    const size = (await stat(path)).size;
    await truncate(path, size - 100);
    await run(APPENDER, [path, 'after', '3']).done;

    const result = await nebuly(['replay', path]);

    const stored = server.store.listInteractions(PROJECT).map((interaction) => interaction.end_user);
    expect(stored.filter((endUser) => endUser.startsWith('after-')).sort()).toEqual(['after-0', 'after-1', 'after-2']);
    expect(result.stdout).toMatch(/1 set aside/);
    expect(result.stdout).toMatch(/not JSON/);
  });

  it('600 KB records from several processes at once never interleave', async () => {
    const { nebuly, file, server } = await world();
    const path = await file('large.jsonl', '');
    await Promise.all(['a', 'b', 'c', 'd'].map((prefix) => run(APPENDER, [path, prefix, '6', '600000']).done));

    const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(24);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ nebuly_dead_letter: 1 });

    const result = await nebuly(['replay', path, '--concurrency', '2']);
    expect(result.code).toBe(0);
    expect(server.store.listInteractions(PROJECT)).toHaveLength(24);
  });

  it.runIf(process.getuid?.() === 0)('run as root, never changes the owner of the app’s file or what it leaves beside it', async () => {
    const { server, nebuly, file } = await world();
    const path = await file('owned.jsonl', [record('u-1'), '\n{"cut'].join(''));
    await chown(path, 4242, 4242);
    server.faults.add({ status: 503, path: CONVERSATION, times: 1 });

    await nebuly(['replay', path, '--max-retries', '0']);

    // The app's path is not re-created by root; what the replay left is the app user's.
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    const dir = dirname(path);
    for (const name of await siblings(path)) {
      const owner = await stat(`${dir}/${basename(path)}${name}`);
      expect([name, owner.uid, owner.gid]).toEqual([name, 4242, 4242]);
    }
    expect(await siblings(path)).toEqual(expect.arrayContaining(['.rejected']));
    await writeFile(path, record('u-2')); // the app appends again
    server.faults.clear();
    const again = await nebuly(['replay', path]);
    expect(again.code).toBe(0);
    expect(server.store.listInteractions(PROJECT).map((interaction) => interaction.end_user).sort()).toEqual(['u-1', 'u-2']);
  });
});
