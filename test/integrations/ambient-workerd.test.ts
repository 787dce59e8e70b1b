/**
 * The ambient target on workerd (the Cloudflare Workers runtime): it follows `await`s with
 * the `nodejs_compat` flag, and holds only during the synchronous part of `fn` without it,
 * as docs/integrations.md says. The main entry and the OpenAI entry, bundled for workers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const WORKERD = fileURLToPath(new URL('../../node_modules/.bin/workerd', import.meta.url));

// A worker: one observed client (a stand-in with the OpenAI shape), a call after an await.
const WORKER = `
import { NebulyClient } from ${JSON.stringify(`${SRC}index.ts`)};
import { currentInteractionId, observeOpenAI } from ${JSON.stringify(`${SRC}integrations/openai.ts`)};
const reply = { model: 'm', choices: [{ message: { role: 'assistant', content: 'Hello' } }] };
const openai = observeOpenAI({ chat: { completions: { create: async () => reply } } });
export default {
  async fetch() {
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl: 'http://nebuly.invalid', fetch: async () => new Response('{}', { status: 202 }) });
    const id = await nebuly.withConversation({ endUser: 'u' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
      return currentInteractionId();
    });
    return Response.json({ recorded: id !== undefined });
  },
};`;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs the worker on workerd with these compatibility flags; returns its answer to one request. */
async function runWorker(flags: string[]): Promise<unknown> {
  const bundled = await build({
    stdin: { contents: WORKER, resolveDir: SRC, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const dir = mkdtempSync(join(tmpdir(), 'nebuly-ambient-'));
  writeFileSync(join(dir, 'worker.js'), bundled.outputFiles[0]!.text);
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
  compatibilityDate = "2025-09-15",
  compatibilityFlags = [${flags.map((flag) => JSON.stringify(flag)).join(', ')}],
);
`,
  );
  const workerd = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  workerd.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    for (let tries = 0; ; tries += 1) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        return await response.json();
      } catch (error) {
        if (tries > 100 || workerd.exitCode !== null) throw new Error(`workerd did not answer: ${stderr}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    workerd.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the ambient target on workerd', () => {
  it('with nodejs_compat, follows awaits: the call after an await is recorded', async () => {
    expect(await runWorker(['nodejs_compat'])).toEqual({ recorded: true });
  }, 30_000);

  it('without it, holds only until the first await: the call is not recorded, nothing breaks', async () => {
    expect(await runWorker([])).toEqual({ recorded: false });
  }, 30_000);
});
