import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/hung-shutdown.ts', import.meta.url));

describe('an awaited shutdown() in a process with nothing else to do', () => {
  it('keeps the process alive until its deadline, then reports what was not sent', async () => {
    // Without a ref'd deadline the event loop empties, Node exits (code 13, an unsettled
    // top-level await) and the conversation is lost without a word.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], { timeout: PROCESS_TIMEOUT_MS });
    expect(stdout).toBe('onError: DeliveryError\nshutdown resolved\n');
  });
});
