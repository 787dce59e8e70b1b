import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TIMEOUT_MS, useWorlds, world } from './world.js';

useWorlds();

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
