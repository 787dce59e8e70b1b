import { Redis as IoRedis } from 'ioredis';
import { Redis as IoRedis5 } from 'ioredis-v5';
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis-v4';
import type { IoRedisClient, NodeRedisClient } from '../../src/redis/index.js';

/** A connected client of one library and major, and how to close it. */
export interface TestClient {
  readonly name: string;
  readonly client: NodeRedisClient | IoRedisClient;
  close(): Promise<void>;
}

/** Each client library and major the store supports, as a name and how to connect one. */
export const CLIENTS: readonly { name: string; connect(url: string): Promise<TestClient> }[] = [
  {
    name: 'node-redis 6',
    async connect(url) {
      const client = createClient({ url });
      client.on('error', () => undefined); // reconnects are expected in the restart tests
      await client.connect();
      return { name: 'node-redis 6', client, close: async () => void (await client.close().catch(() => undefined)) };
    },
  },
  {
    name: 'node-redis 4',
    async connect(url) {
      const client = createClient4({ url });
      client.on('error', () => undefined);
      await client.connect();
      return { name: 'node-redis 4', client, close: async () => void (await client.disconnect().catch(() => undefined)) };
    },
  },
  {
    name: 'ioredis 6',
    async connect(url) {
      const client = new IoRedis(url, { lazyConnect: true });
      client.on('error', () => undefined);
      await client.connect();
      return { name: 'ioredis 6', client, close: async () => client.disconnect() };
    },
  },
  {
    name: 'ioredis 5',
    async connect(url) {
      const client = new IoRedis5(url, { lazyConnect: true });
      client.on('error', () => undefined);
      await client.connect();
      return { name: 'ioredis 5', client, close: async () => client.disconnect() };
    },
  },
];

let stores = 0;
/** A prefix no other store of this run uses, so that tests share one server without meeting. */
export const freshPrefix = () => `test:${process.pid}:${(stores += 1)}:`;
