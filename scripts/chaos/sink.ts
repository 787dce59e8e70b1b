/**
 * The chaos run's service: the reference server, behind a small proxy that logs every
 * ingesting POST with its `Idempotency-Key` and arrival time, and holds each one a while
 * (as a real service does), so that a process killed mid-run is often killed mid-send.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceServer } from '../../src/reference-server/index.js';
import { API_KEY, PROJECT } from './protocol.js';

/** One POST as the service received it. */
export interface Received {
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  /** The worker that sent it (its `x-chaos-sender` header). */
  readonly sender: string | undefined;
  readonly body: unknown;
  readonly status: number;
  /** When it arrived, ms since the epoch. */
  readonly at: number;
}

export interface Sink {
  readonly url: string;
  readonly received: Received[];
  /**
   * Resolves when a POST whose body contains `text` arrives from `sender` (its
   * `x-chaos-sender`), before the service holds and answers it.
   */
  arrival(text: string, sender: string): Promise<void>;
  close(): Promise<void>;
}

async function read(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts the reference server and the proxy in front of it, on loopback.
 *
 * @example
 * ```ts
 * const sink = await startSink({ holdMs: [20, 80] });
 * ```
 */
export async function startSink(options: { holdMs: readonly [number, number] }): Promise<Sink> {
  const reference = await createReferenceServer({ apiKeys: { [API_KEY]: PROJECT } });
  const received: Received[] = [];
  const waiting = new Set<{ text: string; sender: string; resolve: () => void }>();
  const proxy = createServer((request, response) => {
    void (async () => {
      const at = Date.now();
      const body = await read(request);
      for (const waiter of waiting) {
        if (request.method === 'POST' && request.headers['x-chaos-sender'] === waiter.sender && body.includes(waiter.text)) {
          waiting.delete(waiter);
          waiter.resolve();
        }
      }
      const [low, high] = options.holdMs;
      if (request.method === 'POST') await new Promise((resolve) => setTimeout(resolve, low + Math.random() * (high - low)));
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
      headers.delete('host');
      headers.delete('connection');
      const answer = await fetch(new URL(request.url ?? '/', reference.url), {
        method: request.method ?? 'GET',
        headers,
        body: request.method === 'GET' || request.method === 'HEAD' ? null : new Uint8Array(body),
      });
      const text = await answer.text();
      if (request.method === 'POST') {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          // Kept as text: the check reports it.
        }
        const key = request.headers['idempotency-key'];
        const sender = request.headers['x-chaos-sender'];
        received.push({
          path: request.url ?? '',
          idempotencyKey: typeof key === 'string' ? key : undefined,
          sender: typeof sender === 'string' ? sender : undefined,
          body: parsed,
          status: answer.status,
          at,
        });
      }
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(text);
    })().catch((error: unknown) => {
      response.writeHead(502);
      response.end(String(error));
    });
  });
  proxy.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    arrival: (text, sender) => new Promise((resolve) => waiting.add({ text, sender, resolve })),
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await reference.close();
    },
  };
}
