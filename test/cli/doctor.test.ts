import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PROJECT, TIMEOUT_MS, useWorlds, world } from './world.js';

useWorlds();

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A JSON server on loopback that is not the Nebuly API: answers every request with `status` and `body`. */
async function otherJsonServer(status: number, body: unknown): Promise<{ url: string; server: Server }> {
  const server = createHttpServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

describe.concurrent('nebuly doctor (bin)', { timeout: TIMEOUT_MS }, () => {
  it.each([
    [404, { error: 'Not Found' }, 'GET /api/external/eligible-users answered 404'],
    [200, { status: 'ok' }, "GET /api/external/eligible-users answered 200 with a body that is not the Nebuly API's list of users"],
  ])('a host that answers %i as JSON but is not the Nebuly API: said so, exit 1', async (status, body, said) => {
    const { nebuly } = await world();
    const other = await otherJsonServer(status, body);
    try {
      const run = await nebuly(['doctor', '--base-url', other.url]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${other.url} answers, but it is not the Nebuly API: ${said}. Check --base-url or NEBULY_BASE_URL`);
    } finally {
      other.server.close();
    }
  });

  it("--help gives doctor's own defaults: one attempt of 10 s (docs/cli.md), not the client's", async () => {
    const { nebuly } = await world();
    const run = await nebuly(['doctor', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--timeout <ms> +time-out of one attempt +\(default 10000\)/);
    expect(run.stdout).toMatch(/--max-retries <n> +retries of a failed request +\(default 0\)/);
  });

  it('prints the host and its source, that the key is accepted, and the round trip', async () => {
    const { server, nebuly } = await world();
    server.store.insertUsers(
      PROJECT,
      Array.from({ length: 1_204 }, (_, index) => ({ end_user: `u-${index}`, tags: {}, active_from: '2026-01-01T00:00:00Z' })),
    );
    // The flag beats the environment, which points nowhere.
    const run = await nebuly(['doctor', '--base-url', server.url], { NEBULY_BASE_URL: 'http://127.0.0.1:1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`host:       ${server.url} (from --base-url)`);
    expect(run.stdout).toContain('API key:    from NEBULY_API_KEY (never printed)');
    // As docs/cli.md shows it: the count written as every other count of the command.
    expect(run.stdout).toContain('key check:  accepted (GET /api/external/eligible-users answered with 1,204 users)');
    expect(run.stdout).toMatch(/round trip: \d+ ms/);
  });

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
