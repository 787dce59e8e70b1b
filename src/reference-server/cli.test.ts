import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

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
      await expect.poll(() => /listening on (http:\S+)/.exec(output)?.[1], { timeout: 10_000 }).toBeTruthy();
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
});
