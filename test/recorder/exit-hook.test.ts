import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { ENDPOINTS } from '../../src/core/endpoints.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/exit-with-open.ts', import.meta.url));
const PROJECT = 'project-exit';

let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { 'exit-key': PROJECT } });
});
afterEach(() => {
  server.store.clear();
  server.faults.clear();
});
afterAll(async () => {
  await server.close();
});

/** Runs the fixture in its own Node process; resolves with what it printed once it exited. */
async function run(mode: string, clients = 1, shutdownTimeoutMs?: number): Promise<string> {
  const args = [SCRIPT, server.url, mode, String(clients), ...(shutdownTimeoutMs === undefined ? [] : [String(shutdownTimeoutMs)])];
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', ...args], { timeout: PROCESS_TIMEOUT_MS });
  return stdout;
}

const stored = () => server.store.listInteractions(PROJECT).map((interaction) => interaction.end_user).sort();

describe('conversations still open when the process exits', () => {
  it('are sent when the event loop empties, and the process then exits on its own', async () => {
    const stdout = await run('return');
    expect(stored()).toEqual(['exit-0']);
    expect(stdout).toBe('beforeExit listeners: 1\n');
  });

  it('are sent within shutdownTimeoutMs: a service that never answers holds the process no longer', async () => {
    server.faults.add({ delayMs: 60_000, path: ENDPOINTS.sendConversation.path });
    const stdout = await run('return', 1, 300);
    expect(stored()).toEqual([]);
    expect(stdout).toMatch(
      /^beforeExit listeners: 1\nonError: DeliveryError: Conversation [\w-]+ was not delivered: shutdown\(\) did not finish within 300 ms\n$/,
    );
  });

  it('are reported, not sent, with sendOnExit: false', async () => {
    const stdout = await run('return-off');
    expect(stored()).toEqual([]);
    expect(stdout).toBe(
      'beforeExit listeners: 1\n' +
        'onError: unsent_at_exit: The process exited with 1 conversation(s) not sent (1 open, 0 ended and unsent): ' +
        'await nebuly.shutdown() before the process exits (before process.exit(), in SIGINT / SIGTERM handlers)\n',
    );
  });

  it('are reported once, with how many, on process.exit()', async () => {
    const stdout = await run('process-exit', 3);
    expect(stored()).toEqual([]);
    expect(stdout.match(/unsent_at_exit: The process exited with 1 conversation\(s\) not sent/g)).toHaveLength(3);
  });

  it('are reported on process.exit() when ended but not yet sent', async () => {
    const stdout = await run('end-then-exit');
    expect(stored()).toEqual([]);
    expect(stdout).toMatch(/unsent_at_exit: The process exited with 1 conversation\(s\) not sent \(0 open, 1 ended and unsent\)/);
  });

  it('say, with a shared store, what never reached it, and nothing when all of it did', async () => {
    const stdout = await run('shared-exit');
    expect(stdout).toMatch(
      /unsent_at_exit: The process exited with 1 interaction\(s\) not in the shared store \(0 not ended, 1 ended, not yet stored\)/,
    );
    // Every ended turn is in the store: another instance's sweep sends it. No false alarm.
    expect(await run('shared-stored-exit')).toBe('beforeExit listeners: 1\n');
  });

  it("say nothing with delivery: 'interaction' once every ended turn was sent", async () => {
    expect(await run('interaction-exit')).toBe('beforeExit listeners: 1\n');
    expect(stored()).toEqual(['exit-0']);
  });

  it('share one listener across many clients, and none is left after shutdown()', async () => {
    const many = await run('return', 25);
    expect(stored()).toHaveLength(25);
    expect(many).toBe('beforeExit listeners: 1\n'); // no MaxListenersExceededWarning either

    server.store.clear();
    const shut = await run('shutdown', 25);
    expect(stored()).toHaveLength(25);
    expect(shut).toBe('beforeExit listeners: 1\nafter shutdown: 0 beforeExit, 0 exit\n');
  });
});
