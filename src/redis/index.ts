/**
 * `nebuly-client/redis`: a store of open conversations in Redis, shared by every instance
 * of your service, over your own connected node-redis (>= 4) or ioredis (>= 5) client
 * (single node or cluster), or an `@upstash/redis` client on edge runtimes. No library is
 * imported here: install the one you use.
 *
 * @example
 * ```ts
 * import { NebulyClient } from 'nebuly-client';
 * import { redisStore } from 'nebuly-client/redis';
 * import { createClient } from 'redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const nebuly = new NebulyClient({ recorder: { store: redisStore(redis) } });
 * ```
 *
 * @module nebuly-client/redis
 */
export { redisStore, type RedisStoreOptions } from './redis-store.js';
export {
  RedisStoreError,
  type IoRedisClient,
  type NodeRedisClient,
  type RedisClient,
  type RedisStoreErrorCode,
  type UpstashRedisClient,
} from './commands.js';
