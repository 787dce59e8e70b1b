/**
 * One process of the Redis benchmark: a node-redis client and the built package's
 * `redisStore`, appending ended turns as an instance of a chat backend does. Driven over
 * IPC by bench/redis.ts: `{ go: { turns, inFlight, conversations, offset } }` → it appends
 * that many turns, `inFlight` at a time, and answers its wall time and CPU time.
 */
import { createClient } from 'redis';
import type * as RedisEntry from '../src/redis/index.js';
import { interactionData } from './fixtures.js';
import { acceptingFetch, type Sdk } from './sdk.js';

const [dist, url] = process.argv.slice(2);
if (dist === undefined || url === undefined || process.send === undefined) throw new Error('run by bench/redis.ts with an IPC channel');
const send = process.send.bind(process);

const { redisStore } = (await import(new URL('redis.js', dist).href)) as typeof RedisEntry;
const client = await createClient({ url }).connect();
const store = redisStore(client, { prefix: 'bench:' });
const sdk = (await import(new URL('index.js', dist).href)) as Sdk;
/** A client whose recorder has `recorder`'s options, delivering to a fetch that accepts at once. */
const recording = (recorder: { store?: ReturnType<typeof redisStore>; sweepIntervalMs?: number; idleTimeoutMs: number }) =>
  new sdk.NebulyClient({
    apiKey: 'bench-key',
    baseUrl: 'http://127.0.0.1:9',
    fetch: acceptingFetch,
    onError: (error) => {
      throw error;
    },
    recorder,
  });
/** The recorder over the same Redis: what the store costs a recording app. */
const nebuly = recording({ store: redisStore(client, { prefix: 'bench-recorder:' }), sweepIntervalMs: 0, idleTimeoutMs: 0 });
/**
 * The same recorder over the memory store (the default): recording without a shared
 * store, the baseline of the Redis store's client CPU per turn. Its conversations stay
 * open (no idle time-out), as the Redis recorder's stay in Redis.
 */
const local = recording({ idleTimeoutMs: 0 });

/** Ended turn `n` as the recorder stores it: its id and its wire interaction. */
function turn(n: number) {
  const d = interactionData(n);
  const time = new Date(1_767_225_600_000 + n * 1_000).toISOString();
  return {
    id: `turn-${n}`,
    interaction: {
      input: d.input,
      output: d.output,
      time_start: time,
      time_end: time,
      tags: d.tags,
      trace: [{ model: d.model, messages: d.messages, output: d.output, input_tokens: d.input_tokens, output_tokens: d.output_tokens }],
    },
  };
}

interface Go {
  /**
   * `store`: appends straight to the store; `recorder`: turns recorded with
   * nebuly.conversation() over the Redis store, flushed every `inFlight`; `memory`: the
   * same over the memory store.
   */
  through: 'store' | 'recorder' | 'memory';
  turns: number;
  inFlight: number;
  conversations: number;
  offset: number;
}

async function record({ through, turns, inFlight, conversations, offset }: Go) {
  const nebulyOf = through === 'memory' ? local : nebuly;
  for (let n = 0; n < turns; n += 1) {
    const d = interactionData(offset + n);
    const recorded = nebulyOf.conversation({ conversation_id: `conversation-${(offset + n) % conversations}`, end_user: 'user' }).interaction({ input: d.input, tags: d.tags });
    recorded.llm({ model: d.model, messages: d.messages, output: d.output, input_tokens: d.input_tokens, output_tokens: d.output_tokens });
    recorded.end({ output: d.output });
    if ((n + 1) % inFlight === 0) await nebulyOf.flush();
  }
  await nebulyOf.flush();
}

async function go(options: Go) {
  const { turns, inFlight, conversations, offset } = options;
  const made = Array.from({ length: turns }, (_, n) => turn(offset + n));
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  if (options.through !== 'store') await record(options);
  else await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < turns) {
        const n = next++;
        await store.append(`conversation-${(offset + n) % conversations}`, 'user', [made[n]!], Date.now());
      }
    }),
  );
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  // What serializing a turn costs alone: the store's JSON.stringify of each, best of 5.
  let serializeUs = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 5; pass += 1) {
    const serializing = performance.now();
    for (const stored of made) JSON.stringify(stored);
    serializeUs = Math.min(serializeUs, ((performance.now() - serializing) * 1_000) / turns);
  }
  return { ms, cpuUs: user + system, serializeUs };
}

process.on('message', (message: { go?: Go; close?: true }) => {
  if (message.go !== undefined) void go(message.go).then((result) => send(result));
  // A shared store keeps the open conversations: shutdown() leaves them there.
  else void Promise.all([nebuly.shutdown(), local.shutdown()]).then(() => client.close()).then(() => process.exit(0));
});
send({ ready: true });
