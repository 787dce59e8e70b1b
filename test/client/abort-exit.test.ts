import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NebulyClient, type NebulyError } from '../../src/index.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/abort-ignored.ts', import.meta.url));

afterEach(() => {
  vi.useRealTimers();
});

describe('a custom fetch that ignores abort', () => {
  it('does not keep the process alive once shutdown() has resolved', async () => {
    // Before, the attempt's 30 s time-out stayed armed after shutdown() and held the
    // process: the script counts the timers still keeping it alive, by Node's own account,
    // rather than this test timing its exit (which a loaded machine would slow).
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], { timeout: PROCESS_TIMEOUT_MS });
    // Which of the first two lines comes first varies from run to run (the report and the
    // resolution race); the subject here is the last one.
    const lines = stdout.split('\n');
    expect(lines.slice(0, 2).sort()).toEqual(['onError: DeliveryError', 'shutdown resolved']);
    expect(lines.slice(2)).toEqual(['timers keeping the process alive: 0', '']);
  });

  it('leaves no timer of the SDK behind after the shutdown deadline, during an attempt or a wait', async () => {
    // ky is loaded on the first request, and the recorder's stages at their first use (a
    // flush), by real imports that fake time does not wait for.
    const warm = new NebulyClient({ apiKey: 'k', fetch: async () => Response.json({ users: [] }) });
    await warm.eligibleUsers.list();
    await warm.flush();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const errors: NebulyError[] = [];
    let calls = 0;
    const nebuly = new NebulyClient({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9',
      retryDelayMs: 10_000,
      // The first attempt fails at once (a wait of 10 s follows); the second hangs.
      fetch: () => (++calls === 1 ? Promise.reject(new TypeError('fetch failed')) : new Promise<Response>(() => undefined)),
      onError: (error) => errors.push(error),
      recorder: { idleTimeoutMs: 0 },
    });
    const first = nebuly.startConversation({ end_user: 'u' });
    first.interaction({ input: 'q' }).end({ output: 'a' });
    void first.end();
    // The recorder's background work runs in slices between turns of the host (setImmediate).
    for (let i = 0; i < 3; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(10_000); // the wait between attempts, then the hung attempt
    expect(calls).toBe(2);
    const shutdown = nebuly.shutdown({ timeoutMs: 500 });
    await vi.advanceTimersByTimeAsync(500);
    await shutdown;
    expect(errors.map((error) => error.name)).toEqual(['DeliveryError']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
