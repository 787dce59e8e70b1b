import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';

/** An HTTP front to a real redis-server that speaks Upstash's REST protocol, for `@upstash/redis` in tests. */
export interface UpstashFront {
  /** The REST URL, as `UPSTASH_REDIS_REST_URL` would be. */
  readonly url: string;
  /** How many requests it answered, by path (`/`, `/pipeline`, `/multi-exec`). */
  readonly requests: Map<string, number>;
  /** How many commands Redis ran without an error, by name in capitals (`EVALSHA`), whatever the path. */
  readonly commands: Map<string, number>;
  close(): Promise<void>;
}

type Reply = string | number | null | Reply[];

/**
 * A string of a reply in base64, as Upstash answers a client that sent
 * `Upstash-Encoding: base64` (integers and nulls stay as they are).
 */
function encoded(reply: Reply): Reply {
  if (typeof reply === 'string') return Buffer.from(reply, 'utf8').toString('base64');
  return Array.isArray(reply) ? reply.map(encoded) : reply;
}

async function body(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function answer(response: ServerResponse, status: number, json: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(json));
}

/**
 * Starts the front on a free loopback port, in front of the redis-server at `redisUrl`:
 * POST `/` runs one command (a JSON array: name then arguments) and answers
 * `{"result": …}`, or `{"error": "<Redis's error>"}` with 400; POST `/pipeline` runs
 * several (an array of such arrays) and answers an array of those objects; POST
 * `/multi-exec` runs them in MULTI/EXEC. Every request needs `Authorization: Bearer
 * <token>` (401 otherwise); with `Upstash-Encoding: base64` every string of a result is
 * in base64.
 *
 * @example
 * ```ts
 * const front = await startUpstashFront(server.url, 'token');
 * const redis = new Redis({ url: front.url, token: 'token' });
 * ```
 */
export async function startUpstashFront(redisUrl: string, token: string): Promise<UpstashFront> {
  const redis = createClient({ url: redisUrl });
  redis.on('error', () => undefined);
  await redis.connect();
  const requests = new Map<string, number>();
  const commands = new Map<string, number>();

  const run = async (command: unknown): Promise<{ result: Reply } | { error: string }> => {
    if (!Array.isArray(command) || command.length === 0) return { error: 'ERR the command must be a non-empty array' };
    try {
      const result = (await redis.sendCommand(command.map(String))) as Reply;
      const name = String(command[0]).toUpperCase();
      commands.set(name, (commands.get(name) ?? 0) + 1);
      return { result };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };

  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://front').pathname;
      requests.set(path, (requests.get(path) ?? 0) + 1);
      if (request.headers.authorization !== `Bearer ${token}`) return answer(response, 401, { error: 'Unauthorized' });
      if (request.method !== 'POST') return answer(response, 405, { error: 'only POST with a JSON body here' });
      const base64 = request.headers['upstash-encoding'] === 'base64';
      const shaped = (result: { result: Reply } | { error: string }) => ('result' in result && base64 ? { result: encoded(result.result) } : result);
      const sent = await body(request);
      if (path === '/') {
        const result = await run(sent);
        return answer(response, 'error' in result ? 400 : 200, shaped(result));
      }
      if (path === '/pipeline') {
        const results = [];
        for (const command of sent as unknown[]) results.push(shaped(await run(command)));
        return answer(response, 200, results);
      }
      if (path === '/multi-exec') {
        const multi = redis.multi();
        for (const command of sent as unknown[][]) multi.addCommand(command.map(String));
        try {
          const results = (await multi.exec()) as unknown as Reply[];
          return answer(response, 200, results.map((result) => shaped({ result })));
        } catch (error) {
          return answer(response, 400, { error: error instanceof Error ? error.message : String(error) });
        }
      }
      return answer(response, 404, { error: `no such path ${path}` });
    })().catch((error: unknown) => answer(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    commands,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.close().catch(() => undefined);
    },
  };
}
