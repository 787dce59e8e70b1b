import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient } from '../index.js';

const WEB_ENTRY = fileURLToPath(new URL('./web.ts', import.meta.url));
const WORKERD = fileURLToPath(new URL('../../node_modules/.bin/workerd', import.meta.url));

/** The web entry as a bundler for browsers and workers sees it: one file, nothing external. */
async function bundleFor(platform: 'browser' | 'neutral', contents: string) {
  const result = await build({
    stdin: { contents, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform,
    mainFields: ['module', 'main'],
    target: 'es2022',
    write: false,
    metafile: true,
    outfile: 'worker.js',
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(output.inputs), imports: output.imports };
}

describe('nebuly-client/reference-server/web', () => {
  it('bundles for a browser with no node: import left', async () => {
    const { code, inputs, imports } = await bundleFor('browser', `export * from ${JSON.stringify(WEB_ENTRY)};`);
    expect(imports).toEqual([]);
    expect(inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(/from\s*["']node:/);
    expect(code).toContain('createReferenceHandler');
  });

  it('is what the Node entry exports, less the Node server', async () => {
    const web = await import('./web.js');
    const node = await import('./index.js');
    expect(Object.keys(node).sort()).toEqual([...Object.keys(web), 'createReferenceServer'].sort());
  });
});

/** A free loopback port, for workerd to listen on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('createReferenceHandler on workerd (the Cloudflare Workers runtime)', () => {
  let dir: string;
  let workerd: ChildProcess;
  let baseUrl: string;
  let stderr = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nebuly-workerd-'));
    const worker = await bundleFor(
      'neutral',
      `import { createReferenceHandler } from ${JSON.stringify(WEB_ENTRY)};
       const reference = createReferenceHandler({ apiKeys: { 'worker-key': 'worker-project' } });
       export default { fetch: (request) => reference.fetch(request) };`,
    );
    writeFileSync(join(dir, 'worker.js'), worker.code);
    const port = await freePort();
    writeFileSync(
      join(dir, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js")],
  compatibilityDate = "2025-01-01",
);
`,
    );
    workerd = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
    workerd.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    baseUrl = `http://127.0.0.1:${port}`;
    // Ready when it responds: any status will do.
    for (let tries = 0; ; tries += 1) {
      try {
        await fetch(`${baseUrl}/`);
        break;
      } catch (error) {
        if (tries > 100 || workerd.exitCode !== null) throw new Error(`workerd did not start: ${stderr}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 30_000);

  afterAll(() => {
    workerd?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the client: users stored, a conversation accepted, the key checked, validation errors in FastAPI shape', async () => {
    const nebuly = new NebulyClient({ apiKey: 'worker-key', baseUrl, maxRetries: 0 });
    const inserted = await nebuly.eligibleUsers.insert({
      users: [{ end_user: 'u-1', tags: { team: 'a' }, active_from: '2026-01-01' }],
    });
    expect(inserted.users.map((user) => user.end_user)).toEqual(['u-1']);
    expect((await nebuly.eligibleUsers.list()).users).toHaveLength(1);

    const sent = await nebuly.conversations.send({
      conversation: { end_user: 'u-1', interactions: [{ input: 'Hi', output: 'Hello', time_start: new Date(), time_end: new Date() }] },
    });
    expect(sent.status).toBe(202);

    const stranger = new NebulyClient({ apiKey: 'wrong-key', baseUrl, maxRetries: 0 });
    await expect(stranger.eligibleUsers.list()).rejects.toMatchObject({ status: 401 });

    const raw = await fetch(`${baseUrl}/api/external/eligible-users`, {
      method: 'PUT',
      headers: { authorization: 'Bearer worker-key', 'content-type': 'application/json' },
      body: JSON.stringify({ users: [{ end_user: 'u-1' }] }),
    });
    expect(raw.status).toBe(422);
    expect(await raw.json()).toMatchObject({ detail: expect.arrayContaining([expect.objectContaining({ loc: ['body', 'users', 0, 'tags'] })]) });
  });
});
