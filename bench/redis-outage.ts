/**
 * Memory while Redis is down (issue 33): a process records TURNS ended turns of about
 * 4 kB each into `redisStore` while its redis-server is down, and samples its heap plus
 * external memory as it goes. Down two ways: killed (connections refused while node-redis
 * reconnects) and stopped (SIGSTOP: every command sent waits for an answer, as behind a
 * network that dropped).
 * What the recorder cannot hold must be reported at once (`QueueFullError`, with its
 * payload), not held: the growth stays near `maxQueuedBytes` however long Redis is down.
 *
 * Run in a child process of its own (`--expose-gc`), so that its heap is only this.
 *
 *   node --expose-gc --import tsx bench/redis-outage.ts   # alone (after npm run build)
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import type * as RedisEntry from '../src/redis/index.js';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { collectGarbage } from './heap.js';
import { acceptingFetch, DIST, type Sdk } from './sdk.js';

const TURNS = 30_000;
const CONVERSATIONS = 3_000;
/** Characters of the input and of the output of each turn: a turn of about 4 kB. */
const HALF = 2_000;
const MIB = 1024 * 1024;

/** How the Redis is down: killed, or stopped with SIGSTOP. */
export type Outage = 'killed' | 'stopped';

export interface OutageResult {
  outage: Outage;
  turns: number;
  /** The recorder's `maxQueuedBytes`. */
  maxQueuedBytes: number;
  /** The largest heap + external growth seen while recording into the Redis that is down, MB. */
  peakGrowthMb: number;
  /** `peakGrowthMb` / `maxQueuedBytes` in MB. */
  growthVsBound: number;
  /** Turns handed to `onError` while Redis was down (`QueueFullError` and store failures), by error name. */
  reported: Record<string, number>;
}

const used = () => {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/** The child: records into a Redis that is down and answers what it measured. */
async function child(outage: Outage, url: string, down: () => Promise<void>): Promise<OutageResult> {
  const { redisStore } = (await import(new URL('redis.js', DIST).href)) as typeof RedisEntry;
  const sdk = (await import(new URL('index.js', DIST).href)) as Sdk;
  const client = createClient({ url, socket: { reconnectStrategy: () => 200 } });
  // Reconnecting is node-redis's to do; the store reports what fails.
  client.on('error', () => undefined);
  await client.connect();
  const reported: Record<string, number> = {};
  const nebuly = new sdk.NebulyClient({
    apiKey: 'bench-key',
    baseUrl: 'http://127.0.0.1:9',
    fetch: acceptingFetch,
    onError: (error) => {
      reported[error.name] = (reported[error.name] ?? 0) + 1;
    },
    recorder: { store: redisStore(client, { prefix: 'outage:' }), sweepIntervalMs: 0, idleTimeoutMs: 0 },
  });
  const maxQueuedBytes = 50 * MIB; // the default
  // One turn first: the recorder's background part loaded and its scripts in Redis.
  nebuly.conversation({ conversation_id: 'warm', end_user: 'u' }).interaction({ input: 'hi' }).end({ output: 'hello' });
  await nebuly.flush();
  await down();
  const baseline = (collectGarbage(), used());
  let peak = 0;
  // Flat strings of their own: text built from one shared piece would be V8 ropes over it
  // and weigh nothing.
  const text = () => randomBytes(HALF / 2).toString('hex');
  for (let n = 0; n < TURNS; n += 1) {
    const turn = nebuly.conversation({ conversation_id: `c-${n % CONVERSATIONS}`, end_user: 'u' }).interaction({ input: text() });
    turn.end({ output: text() });
    if (n % 500 === 499) {
      // The host's loop turns, as a server's does between requests: the recorder works meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      peak = Math.max(peak, used() - baseline);
    }
  }
  for (let wait = 0; wait < 20; wait += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    peak = Math.max(peak, used() - baseline);
  }
  await nebuly.shutdown({ timeoutMs: 2_000 });
  void client.disconnect().catch(() => undefined);
  return {
    outage,
    turns: TURNS,
    maxQueuedBytes,
    peakGrowthMb: Number((peak / MIB).toFixed(1)),
    growthVsBound: Number((peak / maxQueuedBytes).toFixed(2)),
    reported,
  };
}

/**
 * Runs an outage in a child process against a redis-server of its own, taken down once
 * the child is ready; resolves with the child's figures.
 *
 * @example
 * ```ts
 * const { peakGrowthMb } = await benchRedisOutage('stopped');
 * ```
 */
export async function benchRedisOutage(outage: Outage): Promise<OutageResult> {
  const server = await startRedisServer({ own: true });
  try {
    const process_ = fork(fileURLToPath(import.meta.url), ['--child', outage, server.url], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return await new Promise<OutageResult>((resolve, reject) => {
      process_.on('message', (message: { down?: true; result?: OutageResult }) => {
        if (message.down) {
          if (outage === 'stopped') server.pause();
          void (outage === 'killed' ? server.kill() : Promise.resolve()).then(() => process_.send({ down: true }));
        }
        if (message.result) resolve(message.result);
      });
      process_.on('exit', (code) => reject(new Error(`the outage process exited (${code}) before it answered`)));
    });
  } finally {
    if (outage === 'stopped') server.resume();
    await server.stop();
  }
}

const [flag, outage, url] = process.argv.slice(2);
if (flag === '--child' && url !== undefined) {
  const down = () =>
    new Promise<void>((resolve) => {
      process.once('message', () => resolve());
      process.send!({ down: true });
    });
  const result = await child(outage as Outage, url, down);
  process.send!({ result }, () => process.exit(0));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchRedisOutage('killed'));
  console.log(await benchRedisOutage('stopped'));
}
