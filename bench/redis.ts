import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import type * as RedisEntry from '../src/redis/index.js';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { DIST } from './sdk.js';

const PROCESSES = 4;
const TURNS_PER_PROCESS = 5_000;
const IN_FLIGHT = 16;
const CONVERSATIONS = 500;

export interface RedisResult {
  processes: number;
  turns: number;
  /** Ended turns stored per second by all processes together, through one redis-server. */
  turnsPerSecond: number;
  /** The same turns recorded through the recorder (`nebuly.conversation()`, `turn.end()`, `flush()`) per second. */
  recordedTurnsPerSecond: number;
  /** Commands the recorder's store sent per recorded turn: at most 1. */
  recorderRoundTripsPerTurn: number;
  /** Commands the clients sent per stored turn (INFO commandstats): 1 is one round trip. */
  roundTripsPerTurn: number;
  /** The commands the append script runs inside the server per turn. */
  scriptCommandsPerTurn: number;
  /** Commands sent per conversation to claim it and complete it (2: one round trip each). */
  roundTripsPerClaimAndComplete: number;
  /** Server time in the append script per call, µs (commandstats usec_per_call of EVALSHA). */
  luaUsPerAppend: number;
  /** The server's CPU per turn, µs (INFO cpu). */
  serverCpuUsPerTurn: number;
  /** The storing processes' CPU per turn, µs: the client library, the store, serialization. */
  clientCpuUsPerTurn: number;
  /** Of that, JSON.stringify of the turn, µs. */
  serializeUsPerTurn: number;
  /** The recording processes' CPU per turn recorded through the recorder over `redisStore`, µs. */
  recorderCpuUsPerTurn: number;
  /** The same turns recorded over the memory store, µs: recording without a shared store. */
  memoryRecorderCpuUsPerTurn: number;
  /** `recorderCpuUsPerTurn` / `memoryRecorderCpuUsPerTurn`: what the shared store costs a recording app. */
  recorderCpuVsMemoryStore: number;
  /** One PING's round trip from a Node process, median µs: the floor of any command. */
  pingRttUs: number;
  /** What the claims gave back: every stored turn, none twice. */
  claimedInteractions: number;
}

interface Stats {
  calls: Map<string, { calls: number; usecPerCall: number }>;
  cpuSeconds: number;
}

async function stats(info: (section: string) => Promise<string>): Promise<Stats> {
  const calls = new Map<string, { calls: number; usecPerCall: number }>();
  for (const [, name, count, perCall] of (await info('commandstats')).matchAll(/cmdstat_(\S+?):calls=(\d+),usec=\d+,usec_per_call=([\d.]+)/g)) {
    // The benchmark's own INFO and CONFIG are not the store's.
    if (name !== 'info' && name !== 'config') calls.set(name!, { calls: Number(count), usecPerCall: Number(perCall) });
  }
  const cpu = await info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? Number.NaN);
  return { calls, cpuSeconds: seconds('used_cpu_sys') + seconds('used_cpu_user') };
}

/**
 * Commands the clients sent: commandstats also counts each command a script runs, so only
 * the top-level ones count (the store sends nothing else; a handshake would show here).
 */
const SCRIPT_INNER = new Set([
  'hget', 'hset', 'hsetnx', 'hincrby', 'hexists', 'hdel', 'hmget', 'hgetall', 'exists', 'rename',
  'zadd', 'zrem', 'zscore', 'zrangebyscore', 'pttl', 'pexpire', 'set', 'get', 'del',
]);
const sent = (stats: Stats) => [...stats.calls].reduce((sum, [name, { calls }]) => sum + (SCRIPT_INNER.has(name) ? 0 : calls), 0);
const inner = (stats: Stats) => [...stats.calls].reduce((sum, [name, { calls }]) => sum + (SCRIPT_INNER.has(name) ? calls : 0), 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function worker(url: string) {
  const child: ChildProcess = fork(fileURLToPath(new URL('redis-worker.ts', import.meta.url)), [DIST.href, url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (message) => resolve(message as T)));
  return {
    ready: next<{ ready: true }>(),
    go(go: { through: 'store' | 'recorder' | 'memory'; turns: number; inFlight: number; conversations: number; offset: number }) {
      const answer = next<{ ms: number; cpuUs: number; serializeUs: number }>();
      child.send({ go });
      return answer;
    },
    /** Resolves once the process has shut its clients down and exited: the server outlives them. */
    close: () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ close: true });
      return exited;
    },
  };
}

/**
 * Ended turns through a real redis-server from PROCESSES processes at once, each with its
 * own client and `redisStore` of the built package, the same conversations from all of
 * them; then one process claims and completes every conversation. The server's
 * commandstats count the round trips of each store call.
 */
export async function benchRedis(): Promise<RedisResult> {
  const server = await startRedisServer({ own: true });
  const admin = await createClient({ url: server.url }).connect();
  const info = (section: string) => admin.info(section);
  const workers = Array.from({ length: PROCESSES }, () => worker(server.url));
  try {
    await Promise.all(workers.map((w) => w.ready));
    // Warm up (the scripts get loaded, the JIT warms), then count from zero.
    await Promise.all(workers.map((w, index) => w.go({ through: 'store', turns: 100, inFlight: IN_FLIGHT, conversations: CONVERSATIONS, offset: 1e6 + index * 100 })));
    await admin.configResetStat();
    const before = await stats(info);
    const started = performance.now();
    const runs = await Promise.all(
      workers.map((w, index) => w.go({ through: 'store', turns: TURNS_PER_PROCESS, inFlight: IN_FLIGHT, conversations: CONVERSATIONS, offset: index * TURNS_PER_PROCESS })),
    );
    const wallMs = performance.now() - started;
    const after = await stats(info);
    const turns = PROCESSES * TURNS_PER_PROCESS;

    const pings: number[] = [];
    for (let index = 0; index < 1_000; index += 1) {
      const sent = performance.now();
      await admin.ping();
      pings.push((performance.now() - sent) * 1_000);
    }

    // The same through the recorder: nebuly.conversation(), turn.end(), flush() every IN_FLIGHT turns.
    await Promise.all(workers.map((w, index) => w.go({ through: 'recorder', turns: 100, inFlight: IN_FLIGHT, conversations: CONVERSATIONS, offset: 2e6 + index * 100 })));
    await admin.configResetStat();
    const recordingStarted = performance.now();
    const recordings = await Promise.all(
      workers.map((w, index) => w.go({ through: 'recorder', turns: TURNS_PER_PROCESS, inFlight: IN_FLIGHT, conversations: CONVERSATIONS, offset: index * TURNS_PER_PROCESS })),
    );
    const recordingMs = performance.now() - recordingStarted;
    const recorded = await stats(info);

    // The same turns over the memory store, warmed up the same way.
    await Promise.all(workers.map((w, index) => w.go({ through: 'memory', turns: 100, inFlight: IN_FLIGHT, conversations: CONVERSATIONS, offset: 2e6 + index * 100 })));
    const locals = await Promise.all(
      workers.map((w, index) => w.go({ through: 'memory', turns: TURNS_PER_PROCESS, inFlight: IN_FLIGHT, conversations: CONVERSATIONS, offset: index * TURNS_PER_PROCESS })),
    );
    const cpuPerTurn = (passes: { cpuUs: number }[]) => passes.reduce((sum, pass) => sum + pass.cpuUs, 0) / turns;

    const { redisStore } = (await import(new URL('redis.js', DIST).href)) as typeof RedisEntry;
    const store = redisStore(admin, { prefix: 'bench:' });
    await admin.configResetStat();
    let claimedInteractions = 0;
    for (let index = 0; index < CONVERSATIONS; index += 1) {
      const claim = await store.claim(`conversation-${index}`, Date.now(), 60_000);
      if (claim === undefined) throw new Error(`conversation-${index} was not open`);
      claimedInteractions += claim.interactions.length;
      await store.complete(claim, Date.now() + 60_000);
    }
    const claims = await stats(info);

    return {
      processes: PROCESSES,
      turns,
      turnsPerSecond: Math.round(turns / (wallMs / 1_000)),
      recordedTurnsPerSecond: Math.round(turns / (recordingMs / 1_000)),
      recorderRoundTripsPerTurn: Number((sent(recorded) / turns).toFixed(3)),
      roundTripsPerTurn: Number((sent(after) / turns).toFixed(3)),
      scriptCommandsPerTurn: Number((inner(after) / turns).toFixed(2)),
      roundTripsPerClaimAndComplete: Number((sent(claims) / CONVERSATIONS).toFixed(3)),
      luaUsPerAppend: after.calls.get('evalsha')?.usecPerCall ?? Number.NaN,
      serverCpuUsPerTurn: Number((((after.cpuSeconds - before.cpuSeconds) * 1e6) / turns).toFixed(1)),
      clientCpuUsPerTurn: Number((runs.reduce((sum, run) => sum + run.cpuUs, 0) / turns).toFixed(1)),
      serializeUsPerTurn: Number((runs.reduce((sum, run) => sum + run.serializeUs, 0) / runs.length).toFixed(2)),
      recorderCpuUsPerTurn: Number(cpuPerTurn(recordings).toFixed(1)),
      memoryRecorderCpuUsPerTurn: Number(cpuPerTurn(locals).toFixed(1)),
      recorderCpuVsMemoryStore: Number((cpuPerTurn(recordings) / cpuPerTurn(locals)).toFixed(2)),
      pingRttUs: Math.round(median(pings)),
      claimedInteractions: claimedInteractions - PROCESSES * 100,
    };
  } finally {
    await Promise.all(workers.map((w) => w.close()));
    await admin.close();
    await server.stop();
  }
}

// `node --import tsx bench/redis.ts` (after `npm run build`): this benchmark alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await benchRedis());
