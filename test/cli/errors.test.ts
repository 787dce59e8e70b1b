import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_DEFAULTS } from '../../src/core/options.js';
import { KEY, TIMEOUT_MS, USERS, useWorlds, world } from './world.js';

useWorlds();

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
});

/** A web server in front of nothing: every request gets a 502 HTML page that echoes the Authorization header. */
async function htmlProxy(): Promise<string> {
  const server = createServer((request, response) => {
    response.writeHead(502, { 'content-type': 'text/html' });
    const lines = Array.from({ length: 17 }, (_, index) => `<p>line ${index}</p>`).join('\n');
    response.end(`<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>\n${lines}\n<pre>${request.headers.authorization ?? ''}</pre></body></html>`);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe.concurrent('the CLI’s own errors (bin)', { timeout: TIMEOUT_MS }, () => {
  it.each([
    [['userz', 'sync', 'users.csv'], 'nebuly: unknown command "userz sync": did you mean "users sync"?'],
    [['users', 'snyc', 'users.csv'], 'nebuly: unknown command "users snyc": did you mean "users sync"?'],
    [['users', 'sync', 'users.csv', '--dryrun'], 'nebuly users sync: unknown option "--dryrun": did you mean --dry-run?'],
    [['users', 'export', '--timeout', '-5'], 'nebuly users export: --timeout must be a whole number from 1 to'],
    [['users', 'export', '--max-retires', '3'], 'unknown option "--max-retires": did you mean --max-retries?'],
  ])('%j: echoed with a suggestion, exit 2', async (args, message) => {
    const { nebuly } = await world();
    const result = await nebuly(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('--api-key: a hint to --api-key-file and NEBULY_API_KEY, and the key given is not echoed', async () => {
    const { nebuly } = await world();
    const result = await nebuly(['users', 'export', '--api-key', 'typed-in-key-canary']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('use --api-key-file <path>, or set NEBULY_API_KEY');
    expect(result.stderr).not.toContain('typed-in-key-canary');
  });

  it('--version prints the package version', async () => {
    const { nebuly } = await world();
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await nebuly(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `nebuly ${version}\n` });
  });

  it('an HTML error page is one line that points at the base URL, and the key it echoes is not printed', async () => {
    const { nebuly } = await world();
    const url = await htmlProxy();
    const result = await nebuly(['doctor', '--max-retries', '0'], { NEBULY_BASE_URL: url });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `nebuly doctor: ${url} answered 502 with an HTML page: this does not look like the Nebuly API: check the base URL (a proxy, a load balancer or a login page may be in the way)\n`,
    );
    expect(result.stdout + result.stderr).not.toContain(Buffer.from(KEY).toString('base64'));
  });

  it('doctor never prints a key put in the base URL (user name, password, query)', async () => {
    const { nebuly, server } = await world();
    const port = new URL(server.url).port;
    for (const url of [`http://${KEY}@127.0.0.1:${port}`, `http://user:${KEY}@127.0.0.1:${port}`, `http://127.0.0.1:${port}/?api_key=${KEY}`]) {
      const result = await nebuly(['doctor'], { NEBULY_BASE_URL: url }); // world() checks: the key is in no output
      expect(result.stdout).toMatch(/host: {7}http:\/\/(\*\*\*(:\*\*\*)?@)?127\.0\.0\.1:\d+(\/\?api_key=\*\*\*)? \(from NEBULY_BASE_URL\)/);
    }
  });

  it(`--max-retries: help, docs and behaviour agree on the default (${CLIENT_DEFAULTS.maxRetries})`, async () => {
    const { nebuly, server } = await world();
    const help = await nebuly(['users', 'export', '--help']);
    expect(help.stdout).toMatch(new RegExp(`--max-retries <n> .*\\(default ${CLIENT_DEFAULTS.maxRetries}\\)`));
    expect(help.stdout).toMatch(new RegExp(`--timeout <ms> .*\\(default ${CLIENT_DEFAULTS.timeoutMs}\\)`));
    const docs = await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    expect(docs).toContain(`\`--max-retries <n>\` (default ${CLIENT_DEFAULTS.maxRetries};`);

    server.faults.add({ status: 503, retryAfter: '0', path: USERS, times: Infinity });
    const result = await nebuly(['users', 'export']);
    expect(result.code).toBe(1);
    expect(server.requests.count({ path: USERS })).toBe(1 + CLIENT_DEFAULTS.maxRetries);
  });

  it('control characters from the data are escaped in what is printed', async () => {
    const { nebuly, file } = await world();
    const path = await file('hostile.csv', 'end_user,active_from,tag.team\nu-1\u001b[2J\u001b[31m,2026-01-01,"a\u202eb"\nu-2,nope,x\n');
    const bad = await nebuly(['users', 'sync', path, '--dry-run']);
    expect(bad.code).toBe(2);
    const good = await nebuly(['users', 'sync', await file('fine.csv', 'end_user,active_from,tag.team\nu-1\u001b[2J,2026-01-01,"a\u202eb"\n'), '--dry-run']);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('+ u-1\\u001b[2J');
    for (const output of [bad.stdout, bad.stderr, good.stdout, good.stderr]) {
      expect(output).not.toContain('\u001b');
      expect(output).not.toContain('\u202e');
    }
  });
});
