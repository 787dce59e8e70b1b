import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run demo (the README’s main job)', () => {
  it('runs the whole scenario against the embedded reference server and exits 0', async () => {
    // The same command as the package.json script, without npm's own output.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
      cwd: ROOT,
      timeout: PROCESS_TIMEOUT_MS,
    });

    expect(stdout).toContain('insert: 3 users inserted');
    expect(stdout).toContain('insert of alice again: 0 inserted');
    expect(stdout).toContain('conversation.end(): delivered');
    expect(stdout).toMatch(/"2 interactions deleted"/);
    expect(stdout).toMatch(/POST\s+\/api\/external\/projects\/delete-interactions\s+200/);
    // Reliability: a retried fault that gets through, and an outage reported to onError.
    expect(stdout).toContain('eligibleUsers.list() with two 503s injected: 503 → 503 → 200, 3 users after 3 attempts');
    expect(stdout).toMatch(/onError: DeliveryError: Conversation outage-1 was not delivered: .* answered 503/);
    expect(stdout).toMatch(/its payload is kept \(\d+ bytes of JSON\)/);
    expect(stdout).toContain('conversation.end() during an outage: failed, after 5 attempts');
    expect(stdout).toContain('outage-1 sent again from its payload, answered 202');
    expect(stdout).toContain('Done: the server is closed.');
    expect(stdout).not.toContain('demo-key');
  });
});
