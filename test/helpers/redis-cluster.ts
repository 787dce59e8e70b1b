import { type ChildProcess, execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { exited, freePort, launch, waitReady } from './redis-server.js';

/** A plain client to one node. */
export type Admin = ReturnType<typeof connectAdmin>;

const connectAdmin = (url: string) => createClient({ url });

/** One master of a test cluster. */
export interface ClusterNode {
  readonly port: number;
  readonly url: string;
  /** Its cluster node id (CLUSTER MYID). */
  readonly id: string;
  /** A plain client to this node, for admin commands (CLUSTER, DBSIZE, CONFIG). */
  readonly admin: Admin;
}

/** A real Redis Cluster of `redis-server` processes on loopback, started for a test file. */
export interface RedisCluster {
  readonly nodes: readonly ClusterNode[];
  /** The master that serves `slot` now. */
  ownerOf(slot: number): Promise<ClusterNode>;
  /** The slot of `key` (CLUSTER KEYSLOT). */
  slotOf(key: string): Promise<number>;
  /**
   * Moves `slot` to `to` the way `redis-cli --cluster reshard` does (IMPORTING, MIGRATING,
   * MIGRATE of its keys, SETSLOT NODE on every master), `keysPerStep` keys at a time with
   * `pauseMs` between steps, so that commands meet the slot half moved. Resolves with how
   * many keys moved.
   */
  migrateSlot(slot: number, to: ClusterNode, options?: { keysPerStep?: number; pauseMs?: number }): Promise<number>;
  stop(): Promise<void>;
}

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `masters` redis-server processes in cluster mode (each with its bus on a free
 * port of its own), joins them with `redis-cli --cluster create` (slots split evenly, no
 * replicas), and waits until every node sees the cluster whole.
 *
 * @example
 * ```ts
 * const cluster = await startRedisCluster();
 * const client = await createCluster({ rootNodes: cluster.nodes.map(({ url }) => ({ url })) }).connect();
 * ```
 */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'nebuly-redis-cluster-'));
  const children: ChildProcess[] = [];
  const onExit = () => children.forEach((child) => child.kill('SIGKILL'));
  process.once('exit', onExit);
  const nodes: ClusterNode[] = [];
  try {
    const ports: number[] = [];
    for (let index = 0; index < masters; index += 1) {
      const port = await freePort();
      const bus = await freePort();
      const own = join(dir, String(port));
      mkdirSync(own);
      const child = launch(port, own, [
        '--cluster-enabled', 'yes',
        '--cluster-port', String(bus),
        '--cluster-config-file', join(own, 'nodes.conf'),
        '--cluster-node-timeout', '5000',
      ]);
      children.push(child);
      await waitReady(port, child);
      ports.push(port);
    }
    await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) {
      const admin = connectAdmin(`redis://127.0.0.1:${port}`);
      admin.on('error', () => undefined);
      await admin.connect();
      nodes.push({ port, url: `redis://127.0.0.1:${port}`, id: String(await admin.sendCommand(['CLUSTER', 'MYID'])), admin });
    }
    // Until every node knows every other and serves the cluster.
    for (let tries = 0; ; tries += 1) {
      const states = await Promise.all(nodes.map(async ({ admin }) => String(await admin.sendCommand(['CLUSTER', 'INFO']))));
      if (states.every((state) => state.includes('cluster_state:ok') && state.includes(`cluster_known_nodes:${masters}`))) break;
      if (tries > 400) throw new Error('the test cluster did not come up within 20 s');
      await sleep(50);
    }
  } catch (error) {
    await Promise.all(children.map((child) => exited(child, 'SIGKILL')));
    throw error;
  }

  const slotOf = async (key: string) => Number(await nodes[0]!.admin.sendCommand(['CLUSTER', 'KEYSLOT', key]));
  async function ownerOf(slot: number): Promise<ClusterNode> {
    const ranges = (await nodes[0]!.admin.sendCommand(['CLUSTER', 'SLOTS'])) as [number, number, [string, number, string]][];
    const range = ranges.find(([from, to]) => from <= slot && slot <= to);
    const owner = nodes.find(({ id }) => id === range?.[2][2]);
    if (owner === undefined) throw new Error(`no node serves slot ${slot}`);
    return owner;
  }

  return {
    nodes,
    slotOf,
    ownerOf,
    async migrateSlot(slot, to, { keysPerStep = 1, pauseMs = 0 } = {}) {
      const from = await ownerOf(slot);
      if (from === to) return 0;
      await to.admin.sendCommand(['CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', from.id]);
      await from.admin.sendCommand(['CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', to.id]);
      let moved = 0;
      for (;;) {
        const keys = (await from.admin.sendCommand(['CLUSTER', 'GETKEYSINSLOT', String(slot), String(keysPerStep)])) as string[];
        if (keys.length === 0) break;
        await from.admin.sendCommand(['MIGRATE', '127.0.0.1', String(to.port), '', '0', '5000', 'KEYS', ...keys]);
        moved += keys.length;
        if (pauseMs > 0) await sleep(pauseMs);
      }
      // The new owner first, as redis-cli does, then every other master.
      await to.admin.sendCommand(['CLUSTER', 'SETSLOT', String(slot), 'NODE', to.id]);
      for (const node of nodes) if (node !== to) await node.admin.sendCommand(['CLUSTER', 'SETSLOT', String(slot), 'NODE', to.id]);
      return moved;
    },
    async stop() {
      process.off('exit', onExit);
      for (const { admin } of nodes) await admin.close().catch(() => undefined);
      await Promise.all(children.map((child) => exited(child, 'SIGTERM')));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
