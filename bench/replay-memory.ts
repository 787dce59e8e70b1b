/**
 * `nebuly replay` with a dead-letter file over 512 MB (the size where reading it whole
 * into one string fails): writes SIZE_MB (default 600) of records, then runs the real bin
 * from source against a port nothing listens on with `--stop-after 1`, so that it streams
 * the whole file (sending one record, keeping the rest). Prints its peak RSS and time.
 * A measurement, not a test:
 *
 *   node --import tsx bench/replay-memory.ts [size-mb]
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeDeadLetter } from '../src/utils/dead-letter-line.js';

const BIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./max-rss.mjs', import.meta.url));
const sizeMb = Number(process.argv[2] ?? 600);

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((listening) => probe.listen(0, '127.0.0.1', listening));
  const { port } = probe.address() as { port: number };
  await new Promise((closed) => probe.close(closed));
  return port;
}

const dir = await mkdtemp(join(tmpdir(), 'nebuly-replay-memory-'));
try {
  const path = join(dir, 'dead-letters.jsonl');
  const out = createWriteStream(path);
  const input = 'x'.repeat(4000);
  let bytes = 0;
  let records = 0;
  while (bytes < sizeMb * 1024 * 1024) {
    const interaction = { input, output: 'o', time_start: '2026-01-01T10:00:00.000Z', time_end: '2026-01-01T10:00:01.000Z' };
    const record = encodeDeadLetter({ idempotencyKey: `key-${records}`, payload: JSON.stringify({ conversation: { end_user: `u-${records}`, interactions: [interaction] } }) });
    bytes += record.length;
    records += 1;
    if (!out.write(record)) await new Promise<void>((drained) => out.once('drain', () => drained()));
  }
  await new Promise<void>((closed) => out.end(() => closed()));

  const started = performance.now();
  const env = { ...process.env, NEBULY_API_KEY: 'bench-key', NEBULY_BASE_URL: `http://127.0.0.1:${await closedPort()}` };
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', PRELOAD, BIN, 'replay', path, '--stop-after', '1', '--max-retries', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout = (stdout + chunk).slice(-4000)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const kb = Number(/max-rss-kb (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  console.log(`replay of ${Math.round(bytes / 1024 / 1024)} MB (${records.toLocaleString('en-US')} records): peak RSS ${Math.round(kb / 1024)} MB, ${seconds} s, exit ${code}`);
  console.log(/Replayed [^\n]*/.exec(stdout)?.[0] ?? stdout);
} finally {
  await rm(dir, { recursive: true, force: true });
}
