import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { json, startLocalServer, type LocalServer } from '../helpers/local-server.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/first-send-modules.ts', import.meta.url));

let server: LocalServer | undefined;
afterEach(async () => server?.close());

// Loading `node:https` and `node:tls` is ~10 ms of main-thread CPU: a host whose first
// request goes to an http:// URL (a sidecar, the reference server) must not pay it.
it('a first conversation sent to an http:// URL loads neither node:https nor node:tls', async () => {
  server = await startLocalServer((_request, response) => json(response, 202, {}));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT, server.baseUrl], { timeout: 60_000 });
  expect(JSON.parse(stdout)).toEqual({ delivered: 1, https: false, tls: false });
}, 90_000);
