import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let server: ReferenceServer;

beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { 'dev-key': 'dev-project' } });
});
afterAll(() => server.close());

/** Runs an example as its header says, against the reference server. */
async function runExample(file: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    timeout: PROCESS_TIMEOUT_MS,
    env: { ...process.env, NEBULY_API_KEY: 'dev-key', NEBULY_BASE_URL: server.url, NEBULY_REGION: '' },
  });
  return stdout;
}

describe('examples/send-interaction.ts', () => {
  it('sends one interaction, then shows the ValidationError of a broken one, which is never sent', async () => {
    const stdout = await runExample('examples/send-interaction.ts');

    expect(stdout).toContain('accepted with status 202');
    expect(stdout).toContain('rejected before sending: ValidationError');
    expect(stdout).toMatch(/interaction\.time_start: must be/);
    expect(stdout).toMatch(/traces\[0\]\.messages\[0\]\.role: must be one of "system", "user", "assistant", "tool"/);
    expect(stdout).toMatch(/traces\[0\]\.input_tokens: must be zero or more/);
    expect(server.requests.count()).toBe(1);
    expect(server.store.listInteractions('dev-project')).toHaveLength(1);
  });
});
