/**
 * The memory of `nebuly users sync` with a large CSV: generates ROWS users (default
 * 1,000,000) in a temporary file, starts a reference server, and runs the real bin from
 * source twice, a dry run and a sync that inserts them all, printing each run's peak RSS
 * and time. A measurement, not a test:
 *
 *   node --import tsx bench/sync-memory.ts [rows] [--dry-run-only]
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createReferenceServer } from '../src/reference-server/index.js';

const BIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./max-rss.mjs', import.meta.url));
const rows = Number(process.argv[2] ?? 1_000_000);
const dryRunOnly = process.argv.includes('--dry-run-only');

async function writeCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('end_user,active_from,active_to,tag.department,tag.country\n');
  for (let i = 0; i < rows; i += 1) {
    const line = `user-${i}-${'0123456789abcdef'.repeat(2)},2026-01-01,${i % 7 === 0 ? '2026-12-31' : ''},dept-${i % 5},${i % 2 === 0 ? 'it' : ''}\n`;
    if (!out.write(line)) await new Promise<void>((drained) => out.once('drain', () => drained()));
  }
  await new Promise<void>((closed) => out.end(() => closed()));
}

async function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; maxRssMb: number; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', PRELOAD, BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const kb = Number(/max-rss-kb (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  return { code, maxRssMb: Math.round(kb / 1024), seconds: Math.round((performance.now() - started) / 100) / 10 };
}

const dir = await mkdtemp(join(tmpdir(), 'nebuly-sync-memory-'));
const server = await createReferenceServer({ apiKeys: { 'bench-key': 'bench' }, maxRecordedRequests: 1, maxRecordedBytes: 1 });
try {
  const path = join(dir, 'users.csv');
  await writeCsv(path);
  const env = { NEBULY_API_KEY: 'bench-key', NEBULY_BASE_URL: server.url };
  const dry = await run(['users', 'sync', path, '--dry-run'], env);
  console.log(`users sync --dry-run, ${rows.toLocaleString('en-US')} rows: peak RSS ${dry.maxRssMb} MB, ${dry.seconds} s (exit ${dry.code})`);
  if (!dryRunOnly) {
    const full = await run(['users', 'sync', path], env);
    console.log(`users sync (all inserted), ${rows.toLocaleString('en-US')} rows: peak RSS ${full.maxRssMb} MB, ${full.seconds} s (exit ${full.code})`);
  }
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
