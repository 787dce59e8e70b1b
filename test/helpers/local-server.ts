import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a {@link LocalServer} received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers request number `index` (from 0); may leave it unanswered. */
export type LocalHandler = (request: ReceivedRequest, res: ServerResponse, index: number) => void;

/** An HTTP server on loopback, with every request it received, for tests over real sockets. */
export interface LocalServer {
  baseUrl: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 (a free port) that records each request, its body read
 * in full, then hands it to `handler`. `close()` drops every connection, hung ones too.
 */
export async function startLocalServer(handler: LocalHandler): Promise<LocalServer> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(received);
      handler(received, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Ends `res` with a JSON body. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
