import { NebulyError } from '../core/nebuly-error.js';
import { type ScriptName, SCRIPTS, SHIELDED_SCRIPTS } from './scripts.js';

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
}

/**
 * An `@upstash/redis` client (`new Redis({ url, token })`, Redis over HTTP, for edge
 * runtimes), as the Redis store uses it. Written out here so that the package never
 * imports `@upstash/redis`.
 *
 * @example
 * ```ts
 * const client: UpstashRedisClient = new Redis({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN });
 * ```
 */
export interface UpstashRedisClient {
  evalsha(sha: string, keys: string[], args: string[]): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  createScript(script: string): unknown;
}

/**
 * Any client `redisStore` takes.
 *
 * @example
 * ```ts
 * const client: RedisClient = new Cluster([{ host: 'redis-0', port: 6379 }]);
 * ```
 */
export type RedisClient = NodeRedisClient | IoRedisClient | UpstashRedisClient;

/**
 * Why a {@link RedisStoreError} happened:
 *
 * - `store_lost`: Redis lost the store's data (restarted without persistence, flushed,
 *   evicted): the call did nothing, and the message says what this instance knows was lost.
 * - `timeout`: no answer within `timeoutMs`. The command may still run later: every
 *   script tolerates it (an append replayed adds nothing twice).
 * - `out_of_memory`: Redis refused the write (`maxmemory` reached under `noeviction`).
 * - `failed`: the client rejected otherwise (connection lost, an error reply), in `cause`.
 *
 * @example
 * ```ts
 * if (error instanceof RedisStoreError && error.code === 'store_lost') alert(error.message);
 * ```
 */
export type RedisStoreErrorCode = 'store_lost' | 'timeout' | 'out_of_memory' | 'failed';

/**
 * A Redis store call that failed; {@link RedisStoreError.code} says why. The recorder
 * reports it to `onError` (a `store_lost` one as a `RecordingError` of that code).
 *
 * @example
 * ```ts
 * new NebulyClient({ onError: (error) => { if (error instanceof RedisStoreError) alert(error.operation, error.code); } });
 * ```
 */
export class RedisStoreError extends NebulyError {
  override name = 'RedisStoreError';
  /** The store method that failed: `append`, `claim`, `sent`, …. */
  readonly operation: string;
  readonly code: RedisStoreErrorCode;

  constructor(operation: string, code: RedisStoreErrorCode, message: string, options?: ErrorOptions) {
    super(`Redis store ${operation}: ${message}`, options);
    this.operation = operation;
    this.code = code;
  }
}

/**
 * The one command the store sends: a script (EVALSHA, and EVAL when the server answers
 * NOSCRIPT: a new or restarted server, a failover, another node of a cluster), the same
 * over every client. Each attempt rejects with a {@link RedisStoreError} after
 * `timeoutMs`, so that a client that queues commands while disconnected (node-redis's
 * default) never leaves the recorder waiting; a slot being migrated (TRYAGAIN) is tried
 * again until its migration ends.
 *
 * @example
 * ```ts
 * const commands = redisCommands(client, 5_000);
 * const reply = await commands.run('claim', 'claim', keys, args);
 * ```
 */
export interface RedisCommands {
  run(operation: string, script: ScriptName, keys: string[], args: string[]): Promise<unknown>;
}

const hasMethods = (client: object, ...names: string[]) =>
  names.every((name) => typeof (client as Record<string, unknown>)[name] === 'function');

/** Whether `client` looks like a node-redis client (camelCase `evalSha`). */
const isNodeRedis = (client: object): client is NodeRedisClient => hasMethods(client, 'evalSha', 'eval');

/** Whether `client` looks like an `@upstash/redis` client (`createScript` besides `evalsha`). */
const isUpstash = (client: object): client is UpstashRedisClient => hasMethods(client, 'evalsha', 'eval', 'createScript');

/** Whether `client` looks like an ioredis client (lowercase `evalsha`). */
const isIoRedis = (client: object): client is IoRedisClient => hasMethods(client, 'evalsha', 'eval') && !isUpstash(client);

/**
 * Whether `client` is a client the store can use, by its methods (no library is
 * imported): node-redis has `evalSha`, ioredis `evalsha`, `@upstash/redis` also `createScript`.
 *
 * @example
 * ```ts
 * isRedisClient(createClient()); // true
 * ```
 */
export function isRedisClient(client: unknown): client is RedisClient {
  return typeof client === 'object' && client !== null && (isNodeRedis(client) || isIoRedis(client) || isUpstash(client));
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

/**
 * The server's error code at the start of `error`'s message; `@upstash/redis` puts
 * `Command failed: ` before it when it sent the command in a pipeline.
 */
function errorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return /^(?:Command failed: )?([A-Z]+)\b/.exec(error.message)?.[1];
}

/** ioredis's cluster gives up after its redirections with `Too many Cluster redirections. Last error: TRYAGAIN …`. */
const isTryAgain = (error: unknown) =>
  errorCode(error) === 'TRYAGAIN' || (error instanceof Error && /Last error: (?:ReplyError: )?TRYAGAIN\b/.test(error.message));

/** A string of a shielded reply without its `'` (scripts.ts, SHIELD); arrays element by element. */
function unshield(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith("'") ? value.slice(1) : value;
  return Array.isArray(value) ? value.map(unshield) : value;
}

/**
 * How long a script that meets a slot being migrated (TRYAGAIN: some of its keys moved
 * already) is tried again, at most: a slot of a store moves in milliseconds; a reshard
 * moves slots one at a time.
 */
const MIGRATION_PATIENCE_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The commands of {@link RedisCommands} over `client`, each attempt rejecting after `timeoutMs`.
 *
 * @example
 * ```ts
 * const commands = redisCommands(await createClient().connect(), 5_000);
 * ```
 */
export function redisCommands(client: RedisClient, timeoutMs: number): RedisCommands {
  const upstash = isUpstash(client);
  const scripts = upstash ? SHIELDED_SCRIPTS : SCRIPTS;
  const evalBoth = isNodeRedis(client)
    ? {
        sha: (sha: string, keys: string[], args: string[]) => client.evalSha(sha, { keys, arguments: args }),
        script: (script: string, keys: string[], args: string[]) => client.eval(script, { keys, arguments: args }),
      }
    : upstash
      ? {
          sha: (sha: string, keys: string[], args: string[]) => client.evalsha(sha, keys, args),
          script: (script: string, keys: string[], args: string[]) => client.eval(script, keys, args),
        }
      : {
          sha: (sha: string, keys: string[], args: string[]) => (client as IoRedisClient).evalsha(sha, keys.length, ...keys, ...args),
          script: (script: string, keys: string[], args: string[]) => (client as IoRedisClient).eval(script, keys.length, ...keys, ...args),
        };

  async function once(script: string, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await evalBoth.sha(await sha1(script), keys, args);
    } catch (error) {
      // EVAL also caches the script on the server: the next EVALSHA finds it.
      if (errorCode(error) === 'NOSCRIPT') return await evalBoth.script(script, keys, args);
      throw error;
    }
  }

  async function run(operation: string, name: ScriptName, keys: string[], args: string[]): Promise<unknown> {
    const script = scripts[name];
    const started = Date.now();
    for (let attempt = 0; ; attempt += 1) {
      try {
        const reply = await bounded(operation, timeoutMs, once(script, keys, args));
        return upstash ? unshield(reply) : reply;
      } catch (error) {
        // The script did not run (Redis checks every key before it does): try again once
        // the slot has moved, backing off to at most 250 ms between tries.
        const cause = error instanceof RedisStoreError ? error.cause : undefined;
        if (!isTryAgain(cause) || Date.now() - started > MIGRATION_PATIENCE_MS) throw error;
        await sleep(Math.min(250, 5 * 2 ** attempt));
      }
    }
  }

  return { run };
}

/** `work`, or a {@link RedisStoreError} if it fails or takes longer than `timeoutMs`. */
async function bounded<T>(operation: string, timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RedisStoreError(operation, 'timeout', `no answer within ${timeoutMs} ms (is the server reachable?)`)),
      timeoutMs,
    );
    // A pending store call must not keep the process alive on its own.
    (timer as { unref?: () => void }).unref?.();
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (error) {
    if (error instanceof RedisStoreError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // Scripts' errors come wrapped (`ERR Error running script … OOM command not allowed …`).
    const code = /\bOOM\b/.test(message) ? 'out_of_memory' : 'failed';
    // `@upstash/redis` quotes the whole command after its error: the interactions' text.
    throw new RedisStoreError(operation, code, message.replace(/, command was: [\s\S]*$/, ''), { cause: error });
  } finally {
    clearTimeout(timer);
    // The command that lost the race may still reject later: that is not unhandled.
    work.catch(() => undefined);
  }
}
