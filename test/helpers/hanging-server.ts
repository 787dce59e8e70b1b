import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A server on loopback that accepts every connection and reads what comes, but never
 * answers: a service that hangs, for the tests and benchmarks of what the recorder holds
 * meanwhile.
 *
 * @example
 * ```ts
 * const server = await startHangingServer();
 * new NebulyClient({ apiKey, baseUrl: server.url });
 * await server.close();
 * ```
 */
export async function startHangingServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
