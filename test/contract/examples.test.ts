import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let server: ReferenceServer;

beforeAll(async () => {
  server = await createReferenceServer({
    apiKeys: { 'dev-key': 'dev-project' },
    experiments: {
      'support-prompt': [
        { kind: 'prompt', prompt: 'Answer in one sentence.', config_params: [{ name: 'temperature', value: 0.2, param_type: 'number' }] },
      ],
      'support-model': [{ kind: 'model', model_id: 'gpt-4o-mini', config_params: [] }],
    },
  });
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

describe('examples/ab-testing.ts', () => {
  it('asks the variants once per user, uses the prompt and model they name, and records the flags', async () => {
    server.store.clear();
    server.requests.clear();
    const stdout = await runExample('examples/ab-testing.ts');

    expect(stdout).toContain('is in support-prompt: prompt "Answer in one sentence." (temperature=0.2)');
    expect(stdout).toContain('is in support-model: model gpt-4o-mini');
    expect(server.requests.count({ path: '/api/external/variants' })).toBe(2);
    const stored = server.store.listInteractions('dev-project');
    expect(stored.map((interaction) => interaction.feature_flag)).toEqual([
      ['support-prompt', 'support-model'],
      ['support-prompt', 'support-model'],
    ]);
    expect(stored[0]?.trace[0]).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Answer in one sentence.' }, { role: 'user' }] });
  });
});

describe('examples/read-interactions.ts', () => {
  it('lists a page and every page, reads a detail after adding tags, and exports 20 days in 3 windows', async () => {
    server.store.clear();
    const stdout = await runExample('examples/read-interactions.ts');

    expect(stdout).toContain('page 1: 5 of 20 interactions');
    expect(stdout).toContain('user-1 has 7 interactions');
    expect(stdout).toMatch(/detail of interaction-\d+: tags \{"csat":"5"\}, 2 turns around it/);
    expect(stdout).toContain('export window 3/3 from 2026-10-15: 6 interactions');
    expect(stdout).toContain('exported 20 interactions');
  });
});

describe('examples/tag-later.ts', () => {
  it('tags a recorded interaction while its conversation is open and once it was sent', async () => {
    server.store.clear();
    server.requests.clear();
    const stdout = await runExample('examples/tag-later.ts');

    expect(stdout).toContain('conversation delivered');
    expect(stdout).toContain('tags now: {"channel":"web","ticket":"resolved","csat":"5"}');
    expect(server.requests.all({ path: '/event-ingestion/api/v2/events/tags' }).map((request) => request.status)).toEqual([202]);
    expect(stdout).not.toContain('[nebuly]');
  });
});

describe('examples/platform-users.ts', () => {
  it('inserts, lists and deletes platform users', async () => {
    server.store.clear();
    const stdout = await runExample('examples/platform-users.ts');

    expect(stdout).toContain('1 user deleted');
    expect(server.store.listUsers('dev-project').map((user) => user.end_user)).toEqual(['u-2001']);
  });
});
