import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import configs from '../../tsup.config.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repo's node_modules, so that what the build leaves external resolves as it does for users.
const OUT = mkdtempSync(join(ROOT, 'node_modules', '.commonjs-'));

beforeAll(async () => {
  // The package's CommonJS build, as published, less the types.
  const commonjs = (configs as Options[]).find(
    (config) => config.format?.includes('cjs') && 'index' in (config.entry as Record<string, string>),
  )!;
  await build({ ...commonjs, outDir: OUT, dts: false, sourcemap: false, clean: false, silent: true, config: false });
}, 60_000);

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('the CommonJS build', () => {
  it('records and delivers a conversation, and calls an endpoint, when required', async () => {
    // ky is loaded on the first request by a dynamic import, which in CommonJS yields the
    // chunk's exports object: the build once failed every send with "ky is not a function".
    const script = `
      const { NebulyClient } = require(${JSON.stringify(join(OUT, 'index.cjs'))});
      const { createReferenceServer } = require(${JSON.stringify(join(OUT, 'reference-server.cjs'))});
      (async () => {
        const server = await createReferenceServer({ apiKeys: { 'cjs-key': 'cjs-project' } });
        const nebuly = new NebulyClient({ apiKey: 'cjs-key', baseUrl: server.url, maxRetries: 0, onError: (error) => console.log(error.message) });
        const conversation = nebuly.startConversation({ end_user: 'u-1' });
        conversation.interaction({ input: 'Hi' }).end({ output: 'Hello' });
        const outcome = await conversation.end();
        const listed = await nebuly.eligibleUsers.list();
        console.log(JSON.stringify({ status: outcome.status, users: listed.users.length }));
        await nebuly.shutdown();
        await server.close();
      })();
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT, timeout: PROCESS_TIMEOUT_MS });
    expect(stdout.trim()).toBe('{"status":"delivered","users":0}');
  });
});
