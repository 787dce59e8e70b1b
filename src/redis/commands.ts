import { NebulyError } from '../core/errors.js';

/**
 * A connected node-redis client (v4 and later: `createClient()`, `createCluster()`), as the
 * Redis store uses it. Written out here so that the package never imports `redis`.
 *
 * @example
 * ```ts
 * const client: NodeRedisClient = await createClient({ url: process.env.REDIS_URL }).connect();
 * ```
 */
export interface NodeRedisClient {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  get(key: string): Promise<unknown>;
}

/**
 * A connected ioredis client (v5 and later: `new Redis()`, `new Cluster()`), as the Redis
 * store uses it. Written out here so that the package never imports `ioredis`.
 *
 * @example
 * ```ts
 * const client: IoRedisClient = new Redis(process.env.REDIS_URL);
 * ```
 */
export interface IoRedisClient {
  evalsha(sha: string, numberOfKeys: number, ...keysAndArguments: string[]): Promise<unknown>;
  eval(script: string, numberOfKeys: number, ...keysAndArguments: string[]): Promise<unknown>;
  get(key: string): Promise<unknown>;
}

/**
 * A Redis store call that failed: the client rejected (connection lost, server down,
 * an error reply, in `cause`) or did not answer within the store's `timeoutMs`.
 *
 * @example
 * ```ts
 * new NebulyClient({ onError: (error) => { if (error instanceof RedisStoreError) alert(error.operation); } });
 * ```
 */
export class RedisStoreError extends NebulyError {
  override name = 'RedisStoreError';
  /** The store method that failed: `append`, `claim`, `sent`, …. */
  readonly operation: string;

  constructor(operation: string, message: string, options?: ErrorOptions) {
    super(`Redis store ${operation}: ${message}`, options);
    this.operation = operation;
  }
}

/**
 * The two commands the store sends, the same over either client: a script (EVALSHA, and
 * EVAL when the server answers NOSCRIPT: a new or restarted server, a failover) and GET.
 * Every call rejects with a {@link RedisStoreError} after `timeoutMs`, so that a client
 * that queues commands while disconnected (node-redis's default) never leaves the
 * recorder waiting: the command may still run later, which every script tolerates.
 *
 * @example
 * ```ts
 * const commands = redisCommands(client, 5_000);
 * const reply = await commands.run('claim', SCRIPTS.claim, [key], args);
 * ```
 */
export interface RedisCommands {
  run(operation: string, script: string, keys: string[], args: string[]): Promise<unknown>;
  get(operation: string, key: string): Promise<string | null>;
}

/** Whether `client` looks like a node-redis client (camelCase `evalSha`). */
const isNodeRedis = (client: object): client is NodeRedisClient =>
  typeof (client as Partial<NodeRedisClient>).evalSha === 'function' &&
  typeof (client as Partial<NodeRedisClient>).eval === 'function' &&
  typeof (client as Partial<NodeRedisClient>).get === 'function';

/** Whether `client` looks like an ioredis client (lowercase `evalsha`). */
const isIoRedis = (client: object): client is IoRedisClient =>
  typeof (client as Partial<IoRedisClient>).evalsha === 'function' &&
  typeof (client as Partial<IoRedisClient>).eval === 'function' &&
  typeof (client as Partial<IoRedisClient>).get === 'function';

/**
 * Whether `client` is a client the store can use, by its methods (neither library is
 * imported): node-redis has `evalSha`, ioredis `evalsha`.
 *
 * @example
 * ```ts
 * isRedisClient(createClient()); // true
 * ```
 */
export function isRedisClient(client: unknown): client is NodeRedisClient | IoRedisClient {
  return typeof client === 'object' && client !== null && (isNodeRedis(client) || isIoRedis(client));
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** SHA-1 of each script, as EVALSHA names it; Web Crypto, so that nothing here needs `node:`. */
const digests = new Map<string, Promise<string>>();
function sha1(script: string): Promise<string> {
  let digest = digests.get(script);
  if (digest === undefined) {
    digest = globalThis.crypto.subtle.digest('SHA-1', new TextEncoder().encode(script)).then(hex);
    digests.set(script, digest);
  }
  return digest;
}

const isNoScript = (error: unknown) => error instanceof Error && error.message.startsWith('NOSCRIPT');

/**
 * The commands of {@link RedisCommands} over `client`, each rejecting after `timeoutMs`.
 *
 * @example
 * ```ts
 * const commands = redisCommands(await createClient().connect(), 5_000);
 * ```
 */
export function redisCommands(client: NodeRedisClient | IoRedisClient, timeoutMs: number): RedisCommands {
  const evalBoth = isNodeRedis(client)
    ? {
        sha: (sha: string, keys: string[], args: string[]) => client.evalSha(sha, { keys, arguments: args }),
        script: (script: string, keys: string[], args: string[]) => client.eval(script, { keys, arguments: args }),
      }
    : {
        sha: (sha: string, keys: string[], args: string[]) => client.evalsha(sha, keys.length, ...keys, ...args),
        script: (script: string, keys: string[], args: string[]) => client.eval(script, keys.length, ...keys, ...args),
      };

  async function run(script: string, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await evalBoth.sha(await sha1(script), keys, args);
    } catch (error) {
      // EVAL also caches the script on the server: the next EVALSHA finds it.
      if (isNoScript(error)) return await evalBoth.script(script, keys, args);
      throw error;
    }
  }

  return {
    run: (operation, script, keys, args) => bounded(operation, timeoutMs, run(script, keys, args)),
    get: async (operation, key) => {
      const value = await bounded(operation, timeoutMs, client.get(key));
      return value === null || value === undefined ? null : String(value);
    },
  };
}

/** `work`, or a {@link RedisStoreError} if it fails or takes longer than `timeoutMs`. */
async function bounded<T>(operation: string, timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RedisStoreError(operation, `no answer within ${timeoutMs} ms (is the server reachable?)`)),
      timeoutMs,
    );
    // A pending store call must not keep the process alive on its own.
    (timer as { unref?: () => void }).unref?.();
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (error) {
    if (error instanceof RedisStoreError) throw error;
    throw new RedisStoreError(operation, error instanceof Error ? error.message : String(error), { cause: error });
  } finally {
    clearTimeout(timer);
    // The command that lost the race may still reject later: that is not unhandled.
    work.catch(() => undefined);
  }
}
