import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A Redis server for tests: a real `redis-server` this helper started, or `REDIS_URL`'s. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server this helper started (nothing for `REDIS_URL`'s). */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL) and starts it again on the same port, empty: a crash and restart. Own servers only. */
  restart(): Promise<void>;
  /** Kills the server (SIGKILL) and leaves it down. Own servers only. */
  kill(): Promise<void>;
  /** Stops the server (SIGSTOP): it holds every command until `resume()`, as a stalled network would. Own servers only. */
  pause(): void;
  /** Lets a paused server run again (SIGCONT): what it held runs now. */
  resume(): void;
}

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether a PING on `port` answers PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Why a server could not be started (redis-server not installed), for waitReady to say. */
const launchErrors = new WeakMap<ChildProcess, Error>();

/** Starts `redis-server` on `port` with its files in `dir`, and `extra` settings (`--name value` pairs). */
export function launch(port: number, dir: string, extra: readonly string[] = []): ChildProcess {
  // No persistence: each test's store uses its own prefix; a restart starts empty.
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning', ...extra],
    { stdio: 'ignore' },
  );
  child.on('error', (error) => launchErrors.set(child, error));
  return child;
}

/** Resolves once the server `child` answers PING on `port`; rejects if it could not start. */
export async function waitReady(port: number, child: ChildProcess): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    const error = launchErrors.get(child);
    if (error !== undefined) throw new Error(`could not start redis-server (is it installed? .ci/run installs it): ${error.message}`);
    if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
    if (await pings(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 5 s`);
}

/** Sends `signal` to `child` and resolves once it exited. */
export function exited(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * A real redis-server for a test file: `REDIS_URL` when set (unless `own`), else one
 * started here on a free loopback port and stopped by `stop()` (or when this process exits).
 *
 * @example
 * ```ts
 * const server = await startRedisServer();
 * const client = await createClient({ url: server.url }).connect();
 * ```
 */
export async function startRedisServer(options: { own?: boolean } = {}): Promise<RedisServer> {
  const external = process.env.REDIS_URL;
  if (external !== undefined && external !== '' && options.own !== true) {
    const notOwn = () => Promise.reject(new Error('the server at REDIS_URL is not this test run\'s to kill'));
    const refuse = () => {
      throw new Error('the server at REDIS_URL is not this test run\'s to pause');
    };
    return { url: external, port: Number(new URL(external).port || 6379), stop: async () => undefined, restart: notOwn, kill: notOwn, pause: refuse, resume: refuse };
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'nebuly-redis-'));
  let child: ChildProcess | undefined = launch(port, dir);
  const onExit = () => child?.kill('SIGKILL');
  process.once('exit', onExit);
  await waitReady(port, child);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      process.off('exit', onExit);
      child?.kill('SIGCONT'); // a paused server ends only once it runs
      await exited(child, 'SIGTERM');
      child = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      await exited(child, 'SIGKILL');
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async restart() {
      await exited(child, 'SIGKILL');
      child = launch(port, dir);
      await waitReady(port, child);
    },
  };
}
