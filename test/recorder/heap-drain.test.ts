import { fork } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ChildMessage, DrainReport, ParentMessage, PayloadKind } from './fixtures/heap-drain.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/heap-drain.ts', import.meta.url));
const BOUND = 8 * 1024 * 1024;
const MIB = 1024 * 1024;
const ANSWER_MS = 25;

/**
 * A conversation endpoint on loopback that is down (503, `Retry-After: 1`) or up (202
 * after ANSWER_MS), counting what it stored while up.
 */
async function startServer() {
  const state = { up: true, stored: 0 };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      if (!state.up) {
        response.writeHead(503, { 'retry-after': '1' }).end();
        return;
      }
      state.stored += 1;
      // Slowly enough that the child samples its memory while bodies are in flight.
      setTimeout(() => response.writeHead(202, { 'content-type': 'application/json' }).end('{}'), ANSWER_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs the child for one payload kind through outage and recovery; resolves with its report. */
async function drain(kind: PayloadKind): Promise<{ report: DrainReport; stored: number }> {
  const server = await startServer();
  try {
    const child = fork(SCRIPT, [server.url, kind, String(BOUND)], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const report = await new Promise<DrainReport>((resolve, reject) => {
      child.on('message', (message: ChildMessage) => {
        if (message.type === 'ready') server.state.up = false;
        if (message.type === 'full') server.state.up = true;
        if (message.type === 'report') resolve(message.report);
        else child.send({ type: message.type === 'ready' ? 'down' : 'up' } satisfies ParentMessage);
      });
      child.on('exit', (code) => reject(new Error(`the child exited (${code}) before reporting`)));
      child.on('error', reject);
    });
    return { report, stored: server.state.stored - 1 };
  } finally {
    await server.close();
  }
}

function growth(samples: readonly number[], baseline: number): number {
  return Math.max(...samples) - baseline;
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(2)} MiB`;

/**
 * Issue 17, item 4: `maxQueuedBytes` bounds what the queue really takes. A child process
 * fills its queue during an outage, then drains it; its heap plus array buffers (where
 * the queued bodies' bytes live) must never grow past 1.5× the bound.
 */
describe('memory while a full queue drains after an outage (maxQueuedBytes 8 MiB)', () => {
  it.each<[PayloadKind, string]>([
    ['small', '200 B conversations'],
    ['ascii10k', '10 kB ASCII'],
    ['nonLatin10k', '10 kB with one non-Latin-1 character'],
    ['large1m', '~1 MB'],
  ])('%s (%s): heap and array buffers grow at most 1.5× the bound', async (kind) => {
    const { report, stored } = await drain(kind);
    const live = growth([...report.live, report.full], report.baseline);
    const raw = growth(report.raw, report.baseline);
    const figures =
      `${kind}: ${report.ended} ended, ${report.refused} refused, ${report.delivered} delivered; growth live ${mib(live)}, ` +
      `raw ${mib(raw)}, at full ${mib(report.full - report.baseline)}, after ${mib(report.after - report.baseline)} ` +
      `(${report.live.length} live, ${report.raw.length} raw samples)`;
    expect(report.otherErrors).toEqual([]);
    // The queue was filled to its bound, and all it held was delivered.
    expect(report.refused).toBeGreaterThan(0);
    expect(report.delivered).toBe(report.ended - report.refused);
    expect(stored).toBe(report.delivered);
    // What the process retains (after a full collection, sampled every 50 ms while the
    // queue fills and drains). The raw peak, garbage not yet collected included, is
    // in the message: it follows V8's schedule, not what the recorder keeps.
    expect(live, figures).toBeLessThanOrEqual(1.5 * BOUND);
  }, 120_000);
});
