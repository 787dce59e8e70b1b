/**
 * `nebuly interactions export` of a large project: seeds the reference server's store
 * directly with LARGE interactions (default 1,000,000) spread evenly over 70 weeks, runs
 * the real bin from source to a file, and reports its throughput and peak RSS; then the
 * same with a tenth of them over a tenth of the weeks (the same windows, a tenth as
 * many), whose peak RSS the large one's is compared with: flat memory is a ratio near 1.
 * Standalone, a measurement, not a test:
 *
 *   node --import tsx bench/export.ts [interactions]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createReferenceServer, type ReferenceServer } from '../src/reference-server/index.js';

const BIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./max-rss.mjs', import.meta.url));
const DAY = 86_400_000;
const FROM = Date.parse('2025-01-06T00:00:00.000Z');

/** What one export run measured. */
export interface ExportRun {
  interactions: number;
  weeks: number;
  /** Wall time of the bin, start-up included. */
  seconds: number;
  /** From the bin's own progress: since the export began. */
  interactionsPerSecond: number;
  peakRssMb: number;
  fileMb: number;
  exit: number | null;
}

/** Stores `count` interactions evenly over `weeks` weeks from FROM, in the store itself (no HTTP). */
function seed(server: ReferenceServer, project: string, count: number, weeks: number): void {
  const span = weeks * 7 * DAY;
  for (let index = 0; index < count; index += 1) {
    const time = new Date(FROM + Math.floor((index * span) / count)).toISOString();
    server.store.addInteraction(project, {
      interaction: {
        conversation_id: `c-${index >> 2}`,
        end_user: `user-${index % 1000}`,
        input: `What is the status of order ${index}?`,
        output: `Order ${index} ships tomorrow.`,
        time_start: time,
        time_end: time,
        tags: { channel: 'web' },
      },
      traces: [],
    });
  }
}

async function exportOnce(count: number, weeks: number, dir: string): Promise<ExportRun> {
  const server = await createReferenceServer({ apiKeys: { 'bench-key': 'bench' }, maxRecordedRequests: 1, maxRecordedBytes: 1 });
  try {
    seed(server, 'bench', count, weeks);
    const out = join(dir, `export-${count}.jsonl`);
    const to = new Date(FROM + weeks * 7 * DAY).toISOString();
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', PRELOAD, BIN, 'interactions', 'export', '--from', new Date(FROM).toISOString(), '--to', to, '--out', out],
      { env: { ...process.env, NEBULY_API_KEY: 'bench-key', NEBULY_BASE_URL: server.url }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    const exit = await new Promise<number | null>((done) => child.on('close', done));
    const seconds = (performance.now() - started) / 1000;
    const kb = Number(/max-rss-kb (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
    const exported = Number(/Exported ([\d,]+) interactions/.exec(stderr)?.[1]?.replaceAll(',', '') ?? Number.NaN);
    // The rate of the last progress line: interactions per second since the export began,
    // the process's start-up (tsx compiling the bin) left out.
    const rates = [...stderr.matchAll(/interactions, ([\d,]+)\/s/g)];
    const rate = Number(rates.at(-1)?.[1]?.replaceAll(',', '') ?? Number.NaN);
    if (exit !== 0 || exported !== count) throw new Error(`export of ${count} failed (exit ${exit}, ${exported} exported): ${stderr}`);
    const fileMb = Math.round((await stat(out)).size / 1024 / 1024);
    await rm(out, { force: true });
    return {
      interactions: count,
      weeks,
      seconds: Math.round(seconds * 10) / 10,
      interactionsPerSecond: rate,
      peakRssMb: Math.round(kb / 1024),
      fileMb,
      exit,
    };
  } finally {
    await server.close();
    server.store.clear();
  }
}

/**
 * The export of `large` interactions over 70 weeks, and of a tenth of them over 7 weeks:
 * throughput, and the peak RSS of the large one as a ratio of the small one's.
 */
export async function benchExport(large = 1_000_000): Promise<{ large: ExportRun; small: ExportRun; peakRssRatio: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'nebuly-export-bench-'));
  try {
    const small = await exportOnce(Math.round(large / 10), 7, dir);
    const big = await exportOnce(large, 70, dir);
    return { large: big, small, peakRssRatio: Math.round((big.peakRssMb / small.peakRssMb) * 1000) / 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchExport(Number(process.argv[2] ?? 1_000_000));
  for (const run of [result.small, result.large]) {
    console.log(
      `interactions export of ${run.interactions.toLocaleString('en-US')} over ${run.weeks} weeks: ${run.seconds} s, ` +
        `${run.interactionsPerSecond.toLocaleString('en-US')} interactions/s, peak RSS ${run.peakRssMb} MB, file ${run.fileMb} MB`,
    );
  }
  console.log(`peak RSS, ${result.large.interactions.toLocaleString('en-US')} vs a tenth: ${result.peakRssRatio} ×`);
}
