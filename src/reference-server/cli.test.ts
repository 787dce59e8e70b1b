import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS } from '../../test/helpers/process-timeout.js';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the bin from its TypeScript source, as `npm run` users would from the build. */
function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return {
    child,
    output: () => output,
    async url(): Promise<string> {
      await expect.poll(() => /listening on (http:\S+)/.exec(output)?.[1], { timeout: PROCESS_TIMEOUT_MS }).toBeTruthy();
      return /listening on (http:\S+)/.exec(output)?.[1] ?? '';
    },
  };
}

describe('nebuly-reference-server (bin)', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'serves, logs method, path, status and ms per request without the key, and exits 0 on %s',
    async (signal) => {
      const key = 'secret-canary-cli-key';
      const cli = start(['--port', '0', '--api-key', `${key}=cli-project`]);
      const url = await cli.url();

      const response = await fetch(`${url}/api/external/eligible-users`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      // The page's address, and the page there for this machine without a key.
      expect(cli.output()).toContain(`What it stored: open ${url}/ in a browser on this machine (no key needed).`);
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<code>cli-project</code>');
      await expect.poll(cli.output).toMatch(/GET \/api\/external\/eligible-users 200 [\d.]+ms/);

      cli.child.kill(signal);
      const [code] = (await once(cli.child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(cli.output()).toContain('projects: cli-project');
      expect(cli.output()).not.toContain(key);
    },
  );

  it('exits 2 with the usage when no key is given', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NEBULY_API_KEY: '' },
    });
    children.push(child);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(2);
    expect(stderr).toContain('no API key');
    expect(stderr).toContain('Usage: nebuly-reference-server');
  });

  it('--print shows each stored interaction as it arrives, cut and escaped, and the listing shows them all', async () => {
    const key = 'print-key';
    const cli = start(['--port', '0', '--api-key', key, '--print']);
    const url = await cli.url();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const interaction = {
      input: `Hi \u001b[31mred\u001b[0m ${'x'.repeat(300)}`,
      output: 'Hello!',
      time_start: '2026-03-01T10:00:00Z',
      time_end: '2026-03-01T10:00:01Z',
      trace: [{ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!' }],
      feedback_actions: [{ slug: 'thumbs_up' }],
    };
    // As hashEndUser() writes one: 64 characters, printed whole like any id under 120.
    const endUser = '0123456789abcdef'.repeat(4);
    const body = JSON.stringify({ conversation: { end_user: endUser, interactions: [interaction] } });
    const sent = await fetch(`${url}/event-ingestion/api/v2/events/trace_conversation`, { method: 'POST', headers, body });
    expect(sent.status).toBe(202);

    await expect.poll(cli.output).toContain(`stored interaction-1 (conversation "conversation-1", end user "${endUser}")`);
    expect(cli.output()).toContain('  input:  "Hi \\u001b[31mred\\u001b[0m xxx');
    expect(cli.output()).toContain('… (+196 chars)');
    expect(cli.output()).toContain('  trace:  llm "gpt-4o" (1 messages)');
    expect(cli.output()).toContain('  feedback: thumbs_up');
    expect(cli.output()).not.toContain('\u001b');

    const listing = await fetch(`${url}/_reference/conversations`, { headers });
    const { conversations } = (await listing.json()) as { conversations: { end_user: string; interactions: { input: string }[] }[] };
    expect(conversations).toEqual([expect.objectContaining({ end_user: endUser, interactions: [expect.objectContaining({ input: interaction.input })] })]);
  });

  it('serves /variants from --experiments <file>, and exits 2 naming a file that is not experiments', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nebuly-experiments-'));
    try {
      const good = join(dir, 'ab.json');
      await writeFile(good, JSON.stringify({ 'new-prompt': [{ kind: 'prompt', prompt: 'Be terse.', config_params: [] }] }));
      const cli = start(['--port', '0', '--api-key', 'k', '--experiments', good]);
      const url = await cli.url();
      const response = await fetch(`${url}/api/external/variants`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'u', feature_flags: ['new-prompt', 'other'] }),
      });
      expect(await response.json()).toEqual({ variants: [{ feature_flag_name: 'new-prompt', variant: { kind: 'prompt', prompt: 'Be terse.', config_params: [] } }] });

      const bad = join(dir, 'bad.json');
      await writeFile(bad, JSON.stringify({ 'new-prompt': [{ kind: 'colour' }] }));
      const refused = start(['--port', '0', '--api-key', 'k', '--experiments', bad]);
      const [code] = (await once(refused.child, 'exit')) as [number | null];
      expect(code).toBe(2);
      expect(refused.output()).toContain(`--experiments ${bad} at new-prompt[0].kind`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
