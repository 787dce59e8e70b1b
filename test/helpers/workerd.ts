/**
 * Code run on workerd (the Cloudflare Workers runtime, the `workerd` devDependency), for
 * the tests of what must work in workers: bundled as a worker bundler does (one ES module,
 * nothing external, no Node built-in), then served on a free loopback port.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const WORKERD = fileURLToPath(new URL('../../node_modules/.bin/workerd', import.meta.url));

/** A bundle: its code, the files it was made of, and what it still imports (nothing, for a worker). */
export interface Bundle {
  code: string;
  inputs: string[];
  imports: unknown[];
}

/**
 * Bundles `contents` (TypeScript; its imports resolved from `resolveDir`) into one ES
 * module, as a bundler for browsers (`'browser'`) or workers (`'neutral'`) does.
 *
 * @example
 * ```ts
 * const { code } = await bundle(`export * from ${JSON.stringify(entry)};`, SRC);
 * ```
 */
export async function bundle(contents: string, resolveDir: string, platform: 'browser' | 'neutral' = 'neutral'): Promise<Bundle> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'ts' },
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

/** A free loopback port, for workerd to listen on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A worker served by workerd. */
export interface RunningWorker {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** What workerd wrote to stderr so far: the worker's `console.error` and `console.warn` among it. */
  stderr(): string;
  /** Stops workerd and removes the worker's files. */
  stop(): void;
}

/** How workerd runs a worker. */
export interface WorkerOptions {
  compatibilityDate: string;
  flags?: string[];
  /** Text bindings: the worker's `env` (and `process.env` with `nodejs_compat`), as wrangler's `vars`. */
  vars?: Record<string, string>;
  /**
   * Lets the worker's `fetch` reach this machine's loopback (a local server playing a
   * remote service); workerd's default outbound reaches public addresses only.
   */
  loopback?: boolean;
}

/**
 * Serves `code` (an ES module whose default export has `fetch`) on workerd with this
 * compatibility date, these flags and vars; resolves once it answers a request (any status:
 * the first request reaches the worker's `fetch`).
 *
 * @example
 * ```ts
 * const worker = await serveWorker((await bundle(source, SRC)).code, { compatibilityDate: '2025-09-15', flags: ['nodejs_compat'] });
 * try {
 *   expect(await (await fetch(worker.baseUrl)).json()).toEqual({ recorded: true });
 * } finally {
 *   worker.stop();
 * }
 * ```
 */
export async function serveWorker(code: string, options: WorkerOptions): Promise<RunningWorker> {
  const dir = mkdtempSync(join(tmpdir(), 'nebuly-workerd-'));
  writeFileSync(join(dir, 'worker.js'), code);
  const port = await freePort();
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)${options.loopback === true ? ', (name = "loopback", network = (allow = ["public", "private", "local"]))' : ''}],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js")],
  compatibilityDate = ${JSON.stringify(options.compatibilityDate)},
  compatibilityFlags = [${(options.flags ?? []).map((flag) => JSON.stringify(flag)).join(', ')}],
  bindings = [${Object.entries(options.vars ?? {})
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ')}],${options.loopback === true ? '\n  globalOutbound = "loopback",' : ''}
);
`,
  );
  const workerd = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  workerd.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const worker = {
    baseUrl: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    stop() {
      workerd.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  for (let tries = 0; ; tries += 1) {
    try {
      await fetch(`${worker.baseUrl}/`);
      return worker;
    } catch (error) {
      if (tries > 100 || workerd.exitCode !== null) {
        worker.stop();
        throw new Error(`workerd did not start: ${stderr}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
