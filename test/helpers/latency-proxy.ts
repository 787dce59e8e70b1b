import { createConnection, createServer, type Socket } from 'node:net';

/** A TCP proxy on loopback that delays what passes through it, as a network does. */
export interface LatencyProxy {
  /** Its port: give clients `redis://127.0.0.1:<port>` instead of the server's. */
  readonly port: number;
  /** Stops accepting and cuts every connection. */
  close(): Promise<void>;
}

/**
 * Forwards each byte between `127.0.0.1:<port>` and `127.0.0.1:<target>` after a delay
 * drawn anew for each chunk between 0 and `jitterMs`, in order on each connection and
 * direction, so that writes of two clients reach the server in another order than they
 * were made now and then: a Redis across a network, where loopback would land every
 * write before the next request of the chat can reach another instance.
 *
 * @example
 * ```ts
 * const proxy = await startLatencyProxy(redis.port, 20);
 * const client = createClient({ url: `redis://127.0.0.1:${proxy.port}` });
 * ```
 */
export async function startLatencyProxy(target: number, jitterMs: number): Promise<LatencyProxy> {
  const sockets = new Set<Socket>();
  /** Pipes `from` into `to`, each chunk after its delay and never before the one ahead of it. */
  const delayed = (from: Socket, to: Socket) => {
    const queue: { chunk: Buffer; due: number }[] = [];
    let closed = false;
    // One timer at a time, for the chunk at the head: timers of different lengths may fire out of order.
    const pump = () => {
      while (queue.length > 0 && queue[0]!.due <= Date.now()) to.write(queue.shift()!.chunk);
      if (queue.length > 0) setTimeout(pump, queue[0]!.due - Date.now());
      else if (closed) to.end();
    };
    from.on('data', (chunk: Buffer) => {
      queue.push({ chunk, due: Date.now() + Math.random() * jitterMs });
      if (queue.length === 1) setTimeout(pump, queue[0]!.due - Date.now());
    });
    from.on('end', () => {
      closed = true;
      if (queue.length === 0) to.end();
    });
    from.on('error', () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    delayed(client, upstream);
    delayed(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
