/**
 * The chaos run: several processes record the turns of the same conversations round robin
 * through one Redis, feedback comes from other processes, one recording process is killed
 * with SIGKILL mid-run, and sweeper processes sweep concurrently. Then `verdict` checks
 * what reached the service.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Buckets, DEFAULT_SHARDS } from '../../src/redis/buckets.js';
import { sharedKey } from '../../src/recorder/keys.js';
import { startRedisCluster } from '../../test/helpers/redis-cluster.js';
import { type RedisServer, startRedisServer } from '../../test/helpers/redis-server.js';
import { type Ledger, verdict, type Verdict } from './check.js';
import type { Command, Reply, WorkerConfig } from './protocol.js';
import { startSink } from './sink.js';

/**
 * Which Redis the run's store uses: `single`, one redis-server; `cluster`, a 3-master
 * Redis Cluster; `restart`, one redis-server killed and restarted empty (no persistence)
 * once `restartAfter` of the turns were recorded.
 */
export type ChaosMode = 'single' | 'cluster' | 'restart';

export interface ChaosOptions {
  mode: ChaosMode;
  conversations: number;
  turns: number;
  recorders: number;
  sweepers: number;
  /** Chats under way at once. */
  parallel: number;
  /** The share of all turns recorded when one recorder is killed. */
  killAfter: number;
  /** In the `restart` mode, the share of all turns recorded when Redis is restarted empty. */
  restartAfter: number;
  idleTimeoutMs: number;
  leaseMs: number;
  sweepEveryMs: number;
  /** How long the service holds each POST, ms, low and high. */
  holdMs: readonly [number, number];
}

export interface ChaosResult extends Verdict {
  readonly options: ChaosOptions;
  readonly timings: { recordingMs: number; drainMs: number; turnsPerSecond: number };
  readonly counts: {
    turnsStored: number;
    turnsUnconfirmed: number;
    feedbackSent: number;
    /** What the clients reported to `onError` (a store call that failed, a delivery refused). */
    errorsReported: number;
    /** Commands the killed process had been given and not answered when it was killed. */
    killedWithCommandsInHand: number;
    /** The conversation the killed process was sending when killed, if it had one. */
    killedMidSend: string | undefined;
    /** In the `restart` mode: conversations that lost turns, each in a bucket some process reported lost (store_lost). */
    conversationsLostWithReport: number;
    /** In the `restart` mode: of their turns, those that never reached the service. */
    turnsLostWithReport: number;
  };
}

/** A command without its id, which the worker's channel adds. */
type Ask = Command extends infer C ? (C extends Command ? Omit<C, 'id'> : never) : never;

const GONE = 'worker gone';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker process, and a way to ask it something and wait for its answer. */
class Worker {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  #next = 0;
  alive = true;

  readonly name: string;

  constructor(config: WorkerConfig, onError: (message: string) => void) {
    this.name = config.name;
    this.#child = fork(fileURLToPath(new URL('worker.ts', import.meta.url)), [JSON.stringify(config)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child.on('message', (reply: Reply) => {
      if (reply.kind === 'ready') return this.#pending.get(-1)?.resolve(reply);
      if (reply.kind === 'error' && reply.id === undefined) return onError(reply.message);
      const pending = this.#pending.get(reply.id!);
      this.#pending.delete(reply.id!);
      if (reply.kind === 'done') pending?.resolve(reply);
      else pending?.reject(new Error(reply.message));
    });
    // Sending to a process that was just killed fails through the send callback; not an 'error' to crash on.
    this.#child.on('error', () => undefined);
    this.#child.on('exit', () => {
      this.alive = false;
      for (const { reject } of this.#pending.values()) reject(new Error(GONE));
      this.#pending.clear();
    });
  }

  /** Commands sent and not yet answered. */
  get inFlight(): number {
    return [...this.#pending.keys()].filter((id) => id !== -1).length;
  }

  ready(): Promise<Reply> {
    return new Promise((resolve, reject) => this.#pending.set(-1, { resolve, reject }));
  }

  ask(command: Ask): Promise<Reply> {
    if (!this.alive) return Promise.reject(new Error(GONE));
    const id = (this.#next += 1);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // A process just killed may not have exited yet: its channel is closed.
      this.#child.send({ ...command, id } as Command, (error) => {
        if (error === null) return;
        this.#pending.delete(id);
        reject(new Error(GONE));
      });
    });
  }

  kill(): void {
    this.alive = false;
    this.#child.kill('SIGKILL');
  }
}

/**
 * Runs the chaos scenario with `options` and checks it.
 *
 * @example
 * ```ts
 * const result = await runChaos({ ...CHAOS_DEFAULTS, conversations: 12 });
 * if (result.failures.length > 0) process.exitCode = 1;
 * ```
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const cluster = options.mode === 'cluster' ? await startRedisCluster(3) : undefined;
  // A server of the run's own when it is to be restarted.
  const redis: RedisServer | undefined = cluster === undefined ? await startRedisServer({ own: options.mode === 'restart' }) : undefined;
  const sink = await startSink({ holdMs: options.holdMs });
  let errorsReported = 0;
  /** What the processes reported, in the `restart` mode: which buckets they were told Redis lost. */
  const lostBuckets = new Set<string>();
  /** Conversations with a turn reported to `onError` with its payload, in the `restart` mode. */
  const reportedUndelivered = new Set<string>();
  /** Commands that failed other than by their process being killed: each is a failure of the run. */
  const commandFailures: string[] = [];
  const failed = (what: string) => (error: unknown) => {
    if (!(error instanceof Error && error.message === GONE)) commandFailures.push(`${what}: ${String(error)}`);
  };
  const redisUrls = cluster === undefined ? [redis!.url] : cluster.nodes.map(({ url }) => url);
  const prefix = `chaos:${process.pid}:${Date.now()}:`;
  const base = { baseUrl: sink.url, redisUrls, cluster: cluster !== undefined, prefix, idleTimeoutMs: options.idleTimeoutMs, leaseMs: options.leaseMs };
  const onError = (message: string) => {
    errorsReported += 1;
    for (const [, tag] of message.matchAll(/Redis lost the store's data in bucket (\{[^}]*\})/g)) lostBuckets.add(tag!);
    // A turn the store did not take (the connection closed under it) is reported with its payload.
    const undelivered = /^DeliveryError: Conversation (chat-\d+) was not delivered/.exec(message)?.[1];
    if (undelivered !== undefined) reportedUndelivered.add(undelivered);
  };
  const buckets = new Buckets(prefix, DEFAULT_SHARDS);
  /**
   * Whether a report covers what `conversationId` lost: its bucket was reported lost
   * (store_lost), or one of its turns was reported undelivered with its payload.
   */
  const reportedLost = (conversationId: string) => lostBuckets.has(buckets.of(sharedKey(conversationId)).tag) || reportedUndelivered.has(conversationId);
  // In the restart mode the recorders also sweep on their own, as long-running instances do
  // by default: a sweep is how an instance learns that Redis lost a bucket it wrote to
  // and will not write to again.
  const recorderSweeps = options.mode === 'restart' ? 1_000 : 0;
  const recorders = Array.from({ length: options.recorders }, (_, n) => new Worker({ ...base, name: `recorder-${n}`, sweepIntervalMs: recorderSweeps }, onError));
  const sweepers = Array.from({ length: options.sweepers }, (_, n) => new Worker({ ...base, name: `sweeper-${n}`, sweepIntervalMs: 0 }, onError));
  const everyone = [...recorders, ...sweepers];
  try {
    await Promise.all(everyone.map((worker) => worker.ready()));
    const ledger: Ledger = { conversations: new Map(), feedback: new Set(), unconfirmedFeedback: new Set(), killed: undefined };
    const interactionIds = new Map<string, string>();
    const total = options.conversations * options.turns;
    let recorded = 0;
    let feedbackSent = 0;
    let killedWithCommandsInHand = 0;
    let killedMidSend: string | undefined;
    let killing = false;
    let killed: Promise<void> = Promise.resolve();
    let restarting = false;
    const alive = () => recorders.filter((worker) => worker.alive);
    const pick = (index: number) => alive()[index % alive().length]!;

    async function giveFeedback(conversationId: string, turn: number, from: Worker) {
      const interactionId = interactionIds.get(`${conversationId} ${turn}`)!;
      try {
        await from.ask({ kind: 'feedback', conversationId, interactionId });
        ledger.feedback.add(`${conversationId} ${turn}`);
        feedbackSent += 1;
      } catch (error) {
        // Killed: this feedback may or may not have been stored.
        if (error instanceof Error && error.message === GONE) ledger.unconfirmedFeedback.add(`${conversationId} ${turn}`);
        failed(`feedback on ${conversationId} turn ${turn}`)(error);
      }
    }

    /**
     * Kills the busiest recorder (the most commands in hand) mid-send: it is told to end a
     * chat that is fully recorded and waiting to go idle, and killed once its request
     * reached the service, which is still holding it. The conversation is then sent again,
     * with the same key, by a sweeper once its lease ended.
     */
    async function kill() {
      const victim = alive().reduce((busiest, worker) => (worker.inFlight > busiest.inFlight ? worker : busiest));
      // The latest such chat not yet swept: the first one was delivered long ago, and an end
      // that claims nothing never reaches the service (no send to kill the victim in).
      const sent = new Set(sink.received.map((post) => JSON.stringify(post.body).match(/conversation (chat-\d+) turn/)?.[1]));
      const idle = [...ledger.conversations.entries()]
        .reverse()
        .find(([id, entry]) => Number(id.slice(5)) % 2 === 1 && entry.stored.size === options.turns && !sent.has(id));
      if (idle !== undefined) {
        const [conversationId, { endUser }] = idle;
        // From the victim: a sweeper may send the chat first (it was left to go idle), and
        // the victim's end then claims nothing and sends nothing to be killed in.
        const arrived = sink.arrival(`"conversation ${conversationId} turn 0"`, victim.name);
        victim.ask({ kind: 'end', conversationId, endUser }).catch(failed(`end of ${conversationId}`));
        // The end waits settleMs (1.5 s) before it claims: give it time to reach the service,
        // and count it as killed mid-send only if it did.
        const reached = await Promise.race([arrived.then(() => true), sleep(5_000).then(() => false)]);
        if (reached) killedMidSend = conversationId;
      }
      killedWithCommandsInHand = victim.inFlight;
      ledger.killed = victim.name;
      victim.kill();
    }

    async function chat(index: number) {
      const conversationId = `chat-${index}`;
      const endUser = `user-${index % 7}`;
      const entry = { endUser, stored: new Set<number>(), unconfirmed: new Set<number>() };
      ledger.conversations.set(conversationId, entry);
      for (let turn = 0; turn < options.turns; turn += 1) {
        const worker = pick(index + turn);
        try {
          const reply = await worker.ask({ kind: 'turn', conversationId, endUser, turn });
          if (reply.kind === 'done' && reply.interactionId !== undefined) interactionIds.set(`${conversationId} ${turn}`, reply.interactionId);
          entry.stored.add(turn);
        } catch (error) {
          entry.unconfirmed.add(turn); // killed with the turn in hand: stored or not
          failed(`turn ${turn} of ${conversationId}`)(error);
        }
        recorded += 1;
        // In the restart mode the restart is the fault: a killed instance could not tell what it lost.
        if (options.mode !== 'restart' && recorded >= total * options.killAfter && !killing) {
          killing = true;
          // Not awaited: the kill waits up to 5 s for the victim's send to arrive, and a chat
          // held that long between two turns goes idle in the store (idleTimeoutMs), is
          // swept, and its later turns reach the service as a second conversation.
          killed = kill();
        }
        if (options.mode === 'restart' && recorded >= total * options.restartAfter && !restarting) {
          restarting = true;
          // Everything Redis held is gone; the processes' clients reconnect on their own.
          await redis!.restart();
        }
        // Feedback on every third turn, from the next process over.
        if (turn % 3 === 1 && entry.stored.has(turn)) await giveFeedback(conversationId, turn, pick(index + turn + 1));
      }
      // Half the chats are ended by a process; the other half go idle, for the sweepers.
      if (index % 2 === 0) await pick(index + 1).ask({ kind: 'end', conversationId, endUser }).catch(failed(`end of ${conversationId}`));
    }

    let sweeping = true;
    const sweeps = sweepers.map(async (sweeper) => {
      while (sweeping && sweeper.alive) {
        await sweeper.ask({ kind: 'sweep' }).catch(failed('sweep'));
        await sleep(options.sweepEveryMs);
      }
    });

    const started = Date.now();
    let nextChat = 0;
    await Promise.all(
      Array.from({ length: options.parallel }, async () => {
        while (nextChat < options.conversations) await chat((nextChat += 1) - 1);
      }),
    );
    await killed;
    const recordingMs = Date.now() - started;

    // Until every conversation reached the service (idle ones after idleTimeoutMs, the
    // killed sender's after its lease), or a deadline that says something is lost.
    const deadline = Date.now() + options.idleTimeoutMs + options.leaseMs + 30_000;
    const settled = () => {
      const { figures, failures } = verdict(sink.received, ledger);
      // The conversation whose sender was killed mid-send reached the service, unanswered:
      // it is sent again once its lease ends.
      if (options.mode === 'restart') {
        // What Redis lost never arrives: done once every conversation did, or is in a bucket reported lost.
        const missing = failures.map((failure) => /^conversation (chat-\d+) never reached the service$/.exec(failure)?.[1]).filter((id) => id !== undefined);
        return missing.every(reportedLost);
      }
      return figures.conversationsDelivered === ledger.conversations.size && (killedMidSend === undefined || figures.duplicatesFromKilledSender > 0);
    };
    while (!settled() && Date.now() < deadline) await sleep(100);
    const drainMs = Date.now() - started - recordingMs;

    // Feedback that arrives after its conversation was sent, from yet another process.
    for (let index = 0; index < options.conversations; index += 4) {
      if (ledger.conversations.get(`chat-${index}`)?.stored.has(0)) await giveFeedback(`chat-${index}`, 0, pick(index + 2));
    }
    sweeping = false;
    await Promise.all(sweeps);
    await Promise.all(everyone.filter((worker) => worker.alive).map((worker) => worker.ask({ kind: 'shutdown' }).catch(failed('shutdown'))));

    const counts = {
      turnsStored: [...ledger.conversations.values()].reduce((sum, entry) => sum + entry.stored.size, 0),
      turnsUnconfirmed: [...ledger.conversations.values()].reduce((sum, entry) => sum + entry.unconfirmed.size, 0),
      feedbackSent,
      errorsReported,
      killedWithCommandsInHand,
      killedMidSend,
      conversationsLostWithReport: 0,
      turnsLostWithReport: 0,
    };
    const checked = verdict(sink.received, ledger);
    if (killedMidSend !== undefined && checked.figures.duplicatesFromKilledSender === 0) {
      commandFailures.push(`${killedMidSend}, whose sender was killed mid-send, was not sent again once its lease ended`);
    }
    // In the restart mode, a conversation's turns (and feedback) may be missing only when a
    // process was told that Redis lost its bucket: a loss reported, not a silent one.
    const LOSS = /^conversation (chat-\d+): stored turn \d+ missing$|^conversation (chat-\d+) never reached the service$|^feedback on conversation (chat-\d+), turn \d+ never arrived$|^(chat-\d+), whose sender was killed mid-send/;
    const excused = (failure: string) => {
      const match = LOSS.exec(failure);
      return options.mode === 'restart' && match !== null && reportedLost(match.slice(1).find((id) => id !== undefined)!);
    };
    const lostConversations = new Set<string>();
    let turnsLostWithReport = 0;
    for (const failure of [...commandFailures, ...checked.failures].filter(excused)) {
      const id = LOSS.exec(failure)!.slice(1).find((found) => found !== undefined)!;
      lostConversations.add(id);
      if (failure.includes('stored turn')) turnsLostWithReport += 1;
      if (failure.endsWith('never reached the service')) turnsLostWithReport += ledger.conversations.get(id)?.stored.size ?? 0;
    }
    counts.conversationsLostWithReport = lostConversations.size;
    counts.turnsLostWithReport = turnsLostWithReport;
    return {
      ...checked,
      failures: [...commandFailures, ...checked.failures].filter((failure) => !excused(failure)),
      options,
      timings: { recordingMs, drainMs, turnsPerSecond: Math.round((counts.turnsStored / recordingMs) * 1000) },
      counts,
    };
  } finally {
    for (const worker of everyone) if (worker.alive) worker.kill();
    await sink.close();
    await redis?.stop();
    await cluster?.stop();
  }
}

/** The full run of `npm run chaos`. */
export const CHAOS_DEFAULTS: ChaosOptions = {
  mode: 'single',
  conversations: 200,
  turns: 6,
  recorders: 4,
  sweepers: 2,
  parallel: 24,
  killAfter: 0.4,
  restartAfter: 0.6,
  idleTimeoutMs: 5_000,
  leaseMs: 3_000,
  sweepEveryMs: 250,
  holdMs: [10, 60],
};
