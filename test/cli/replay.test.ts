import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CONVERSATION, conversation, PROJECT, TIMEOUT_MS, useWorlds, world } from './world.js';

useWorlds();

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
