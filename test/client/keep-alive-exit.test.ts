import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/keep-alive-exit.ts', import.meta.url));

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
});

it('exits once its work is done, though the server keeps the connection open', async () => {
  const connections: string[] = [];
  server = createServer((req, res) => {
    connections.push(String(req.headers.connection));
    req.resume().on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{"users":[]}'));
  });
  // Ten minutes: only an idle socket the client does not hold on to lets the child exit
  // before the limit (PROCESS_TIMEOUT_MS, far below ten minutes) kills it and fails the test.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT, baseUrl], { timeout: PROCESS_TIMEOUT_MS });
  expect(stdout).toBe('listed 0, delivered\n');
  expect(connections).toEqual(['keep-alive', 'keep-alive']);
});
