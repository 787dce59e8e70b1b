import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./fixtures/abort-ignored.ts', import.meta.url));

describe('a custom fetch that ignores abort', () => {
  it('does not keep the process alive once shutdown() has resolved', async () => {
    const started = Date.now();
    // Before, the attempt's 30 s time-out stayed armed after shutdown() and held the
    // process; the 8 s limit here kills it and fails the test.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], { timeout: 8_000 });
    expect(stdout).toBe('onError: DeliveryError\nshutdown resolved\n');
    // Starting Node with tsx takes about a second; the deadline is 200 ms.
    expect(Date.now() - started).toBeLessThan(6_000);
  });
});
