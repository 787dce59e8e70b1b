/**
 * `npm run soak`: delivery under faults. A reference server on loopback answers 30 % of
 * the conversation posts with 503 or 429 (half of them with `Retry-After: 1`) and drops
 * the connection of 5 % more; and, for 15 % more, stores the conversation first and then
 * fails the answer (5 % a 504, 5 % a reset connection, 5 % an answer after the client's
 * time-out): a retry of those stores a duplicate unless the server deduplicates by
 * `Idempotency-Key`. A client with the default options (but `timeoutMs`, 2 s here) ends
 * CONVERSATIONS conversations at once and calls `shutdown()` with its default deadline.
 * Prints what became of them:
 *
 * - delivered: stored by the server;
 * - reported: handed to `onError` with their payload (`DeliveryError`, `QueueFullError`);
 * - lost: neither (must be 0);
 * - duplicated: stored more than once (the same conversation, by its end user);
 * - by key: the stored bodies counted by their `Idempotency-Key`: how many keys, how
 *   many stored more than once (must be 0: the server stores once per key), and how
 *   many bodies came without a key.
 *
 * The faults are drawn from a seeded generator (`--seed N`, default 1), so a run is
 * repeatable up to timing. Bounded in time: the deadline of `shutdown()`, and a hard stop
 * at twice that plus 30 s. Exits 1 when something is lost.
 *
 * `--key-by-body` gives each request without an `Idempotency-Key` one derived from its
 * body (the same on every retry), to measure the server's deduplication with a client
 * that sends no key itself.
 * `--no-store-first` leaves out the store-then-fail faults (the figures before them).
 * `--healthy` injects no fault: the burst figure (how many of a burst ended in one
 * synchronous loop reach a healthy server within the default shutdown deadline).
 *
 * To explore other settings than the defaults (how the defaults were chosen):
 * `--concurrency` (maxConcurrentSends), `--retries` (maxRetries), `--retry-delay`
 * (retryDelayMs), `--deadline` (shutdownTimeoutMs).
 *
 *   npm run soak [-- --seed 7 --conversations 1000]
 *   npm run soak -- --healthy --conversations 5000
 *   npm run soak -- --concurrency 16 --retries 4 --retry-delay 250 --deadline 20000
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { NebulyClient } from '../src/client.js';
import { CLIENT_DEFAULTS } from '../src/core/options.js';
import type { NebulyError } from '../src/core/errors.js';
import { RECORDER_DEFAULTS } from '../src/core/recorder-options.js';
import { createReferenceServer, type FaultSpec } from '../src/reference-server/index.js';
import { ENDPOINTS } from '../src/core/endpoints.js';

const API_KEY = 'soak-key';
const PROJECT = 'soak';

/** A small seeded generator (mulberry32): the same seed draws the same faults. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The faults, checked in order, each drawing only for the requests the ones before it
 * spared: the probabilities are conditional, so that overall 5 % are dropped and 10 %
 * each get a 503 with `Retry-After`, a 503 without, and a 429 with.
 */
function faultMix(storeFirst: boolean, timeoutMs: number) {
  const shares: ({ share: number } & FaultSpec)[] = [
    { drop: true, share: 0.05 },
    { status: 503, retryAfter: '1', share: 0.1 },
    { status: 503, share: 0.1 },
    { status: 429, retryAfter: '1', share: 0.1 },
  ];
  if (storeFirst) {
    shares.push(
      { storeFirst: true, status: 504, share: 0.05 },
      { storeFirst: true, drop: true, share: 0.05 },
      { storeFirst: true, delayMs: timeoutMs + 500, share: 0.05 },
    );
  }
  let spared = 1;
  return shares.map(({ share, ...fault }) => {
    const probability = share / spared;
    spared -= share;
    return { ...fault, probability, times: Infinity, path: ENDPOINTS.sendConversation.path };
  });
}

interface SoakResult {
  conversations: number;
  delivered: number;
  reported: number;
  deliveredAndReported: number;
  lost: number;
  duplicated: number;
  /** Distinct `Idempotency-Key`s among the stored bodies. */
  keys: number;
  /** Keys under which more than one body was stored. */
  duplicatedByKey: number;
  /** Stored bodies that came without a key. */
  withoutKey: number;
  requests: number;
  shutdownMs: number;
  totalMs: number;
}

/** The options under test: the defaults unless overridden on the command line. */
interface Settings {
  maxConcurrentSends: number;
  maxRetries: number;
  retryDelayMs: number;
  shutdownTimeoutMs: number;
  timeoutMs: number;
  keyByBody: boolean;
}

async function soak(conversations: number, seed: number, faults: 'none' | 'before' | 'all', settings: Settings): Promise<SoakResult> {
  const server = await createReferenceServer({
    apiKeys: { [API_KEY]: PROJECT },
    faults: faults === 'none' ? [] : faultMix(faults === 'all', settings.timeoutMs),
    random: seeded(seed),
    maxRecordedRequests: 1,
  });
  let requests = 0;
  const reported = new Set<string>();
  const nebuly = new NebulyClient({
    apiKey: API_KEY,
    baseUrl: server.url,
    maxRetries: settings.maxRetries,
    timeoutMs: settings.timeoutMs,
    retryDelayMs: settings.retryDelayMs,
    recorder: { maxConcurrentSends: settings.maxConcurrentSends, shutdownTimeoutMs: settings.shutdownTimeoutMs },
    fetch: async (input, init) => {
      requests += 1;
      return fetch(input, settings.keyByBody ? await withBodyKey(input, init) : init);
    },
    onError: (error: NebulyError) => {
      for (const id of reportedIds(error)) reported.add(id);
    },
  });
  try {
    const started = performance.now();
    for (let i = 0; i < conversations; i += 1) {
      const conversation = nebuly.startConversation({ end_user: `soak-${i}` });
      conversation.interaction({ input: `question ${i}` }).end({ output: `answer ${i}` });
      void conversation.end();
    }
    const shutdownStarted = performance.now();
    await nebuly.shutdown();
    const ended = performance.now();

    // Each conversation has one interaction: one stored interaction is one stored body.
    const stored = new Map<string, number>();
    const byKey = new Map<string, number>();
    let withoutKey = 0;
    for (const interaction of server.store.listInteractions(PROJECT)) {
      stored.set(interaction.end_user, (stored.get(interaction.end_user) ?? 0) + 1);
      const key = interaction.idempotency_key;
      if (key === null) withoutKey += 1;
      else byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
    let lost = 0;
    let deliveredAndReported = 0;
    for (let i = 0; i < conversations; i += 1) {
      const id = `soak-${i}`;
      const wasStored = stored.has(id);
      if (!wasStored && !reported.has(id)) lost += 1;
      if (wasStored && reported.has(id)) deliveredAndReported += 1;
    }
    return {
      conversations,
      delivered: stored.size,
      reported: reported.size,
      deliveredAndReported,
      lost,
      duplicated: Array.from(stored.values()).filter((count) => count > 1).length,
      keys: byKey.size,
      duplicatedByKey: Array.from(byKey.values()).filter((count) => count > 1).length,
      withoutKey,
      requests,
      shutdownMs: Math.round(ended - shutdownStarted),
      totalMs: Math.round(ended - started),
    };
  } finally {
    await server.close();
  }
}

/**
 * `--key-by-body`: gives a request that carries no `Idempotency-Key` one derived from its
 * body, the same on each retry, as a client that sends one does. For measuring the
 * server's deduplication with a client that does not send keys itself.
 */
async function withBodyKey(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Promise<RequestInit | undefined> {
  const request = new Request(input, init);
  if (request.headers.has('idempotency-key') || request.method !== 'POST') return init;
  const body = await request.text();
  const digest = createHash('sha256').update(body).digest('hex');
  const headers = new Headers(request.headers);
  headers.set('idempotency-key', `soak-${digest}`);
  return { method: request.method, headers, body, signal: request.signal };
}

/** The end users of the conversations an error carries, read back from their payloads. */
function reportedIds(error: NebulyError): string[] {
  const carried: unknown[] = [];
  if ('payload' in error) carried.push(error.payload);
  if ('conversations' in error && Array.isArray(error.conversations)) {
    for (const conversation of error.conversations as { payload: unknown }[]) carried.push(conversation.payload);
  }
  return carried.flatMap((payload) => {
    if (typeof payload !== 'string') return [];
    const body = JSON.parse(payload) as { conversation?: { end_user?: string } };
    return body.conversation?.end_user === undefined ? [] : [body.conversation.end_user];
  });
}

const { values } = parseArgs({
  options: {
    conversations: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    healthy: { type: 'boolean', default: false },
    'no-store-first': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '2000' },
    'key-by-body': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: String(RECORDER_DEFAULTS.maxConcurrentSends) },
    retries: { type: 'string', default: String(CLIENT_DEFAULTS.maxRetries) },
    'retry-delay': { type: 'string', default: String(CLIENT_DEFAULTS.retryDelayMs) },
    deadline: { type: 'string', default: String(RECORDER_DEFAULTS.shutdownTimeoutMs) },
  },
});
const conversations = Number(values.conversations);
const seed = Number(values.seed);
const settings: Settings = {
  maxConcurrentSends: Number(values.concurrency),
  maxRetries: Number(values.retries),
  retryDelayMs: Number(values['retry-delay']),
  shutdownTimeoutMs: Number(values.deadline),
  timeoutMs: Number(values.timeout),
  keyByBody: values['key-by-body'],
};
if (![conversations, seed, ...Object.values(settings).filter((value) => typeof value === 'number')].every(Number.isInteger) || conversations < 1) {
  console.error(
    'usage: npm run soak -- [--conversations N] [--seed N] [--healthy] ' +
      '[--concurrency N] [--retries N] [--retry-delay MS] [--deadline MS] [--timeout MS] [--no-store-first]',
  );
  process.exit(2);
}

const hardStopMs = 2 * settings.shutdownTimeoutMs + 30_000;
const hardStop = setTimeout(() => {
  console.error(`soak: no result after ${hardStopMs} ms; stopping`);
  process.exit(1);
}, hardStopMs);
hardStop.unref();

const mode = values.healthy ? 'none' : values['no-store-first'] ? 'before' : 'all';
const storeFirstText = mode === 'all' ? `, then stored and 5 % 504, 5 % reset, 5 % answered after ${settings.timeoutMs + 500} ms` : '';
const faults =
  mode === 'none'
    ? 'no faults'
    : `faults on ${ENDPOINTS.sendConversation.path}: 5 % dropped connections, 10 % 503 + Retry-After: 1, 10 % 503, 10 % 429 + Retry-After: 1${storeFirstText}`;
console.log(
  `soak: ${conversations} conversations ended at once; ${faults}; ` +
    `maxConcurrentSends ${settings.maxConcurrentSends}, maxRetries ${settings.maxRetries}, ` +
    `retryDelayMs ${settings.retryDelayMs}, shutdownTimeoutMs ${settings.shutdownTimeoutMs}, timeoutMs ${settings.timeoutMs}; seed ${seed}`,
);
const result = await soak(conversations, seed, mode, settings);
console.log(
  [
    `delivered   ${result.delivered}`,
    `reported    ${result.reported} (to onError, with their payloads)`,
    `  of which also delivered: ${result.deliveredAndReported} (abandoned at the deadline after the server stored them)`,
    `lost        ${result.lost}`,
    `duplicated  ${result.duplicated}`,
    `by key      ${result.keys} keys, ${result.duplicatedByKey} stored more than once; ${result.withoutKey} bodies without a key`,
    `requests    ${result.requests}`,
    `shutdown()  ${result.shutdownMs} ms (all: ${result.totalMs} ms)`,
    `summary: delivered ${result.delivered}, reported ${result.reported}, lost ${result.lost}, duplicated ${result.duplicated}`,
  ].join('\n'),
);
clearTimeout(hardStop);
process.exitCode = result.lost > 0 ? 1 : 0;
