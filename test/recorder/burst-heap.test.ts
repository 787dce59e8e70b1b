import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startHangingServer } from '../helpers/hanging-server.js';
import type { BurstReport } from './fixtures/burst-heap.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/burst-heap.ts', import.meta.url));
const BOUND = 8 * 1024 * 1024;

/**
 * docs/recorder.md, "Memory": `maxQueuedBytes` bounds what everything ended and not yet
 * delivered holds, whatever the service does, even when conversations end faster than
 * the background work handles them: a turn that does not fit waits with its conversation,
 * whose end refuses it whole, at once. Before, 40,000 conversations ended in a loop held
 * about 1.6 kB each until the background work reached them (some 60 MiB here: 7.5× this bound).
 */
describe('a burst of ended conversations faster than the background work, against a service that hangs', () => {
  it('retains at most 1.5× maxQueuedBytes, and every conversation meets its fate by the time shutdown() resolves', async () => {
    const server = await startHangingServer();
    try {
      const child = fork(SCRIPT, [server.url, String(BOUND)], { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const report = await new Promise<BurstReport>((resolve, reject) => {
        child.once('message', (message: BurstReport) => resolve(message));
        child.once('exit', (code) => reject(new Error(`the child exited (${code}) before reporting`)));
      });
      const figures = `retained ${(report.retained / 1024 / 1024).toFixed(2)} MiB of a ${BOUND / 1024 / 1024} MiB bound; ${JSON.stringify({ ...report, retained: undefined })}`;
      expect(report.other, figures).toEqual([]);
      expect(report.retained, figures).toBeLessThanOrEqual(1.5 * BOUND);
      // Refused whole, with the turn and a key, or reported at the deadline: none lost, none twice.
      expect(report.refused, figures).toBeGreaterThan(report.ended / 2);
      expect(report.wellFormed, figures).toBe(report.refused);
      expect(report.refused + report.undelivered, figures).toBe(report.ended);
    } finally {
      await server.close();
    }
  }, 120_000);
});
