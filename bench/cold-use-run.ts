import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BlockResult, gap } from './blocking.js';
import type { LoopGaps } from './loop-watch.js';
import { startSink } from './sink-process.js';

/**
 * Runs one cold scenario of bench/cold-use.ts in a fresh process, against the sink in
 * another (bench/sink.ts), and returns what it saw of its event loop.
 *
 * @example
 * ```ts
 * const first = await coldUse('first');
 * ```
 */
export async function coldUse(mode: 'first' | 'burst10k'): Promise<BlockResult> {
  const sink = await startSink();
  try {
    const child = fork(fileURLToPath(new URL('cold-use.ts', import.meta.url)), [mode, sink.url], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`cold-use ${mode} exited with ${code}`);
    const { callMs, callWallMs, ...gaps } = JSON.parse(out.trim().split('\n').pop() ?? '{}') as LoopGaps & { callMs: number; callWallMs: number };
    // The loop of 10,000 calls is the caller's; one call of each kind is the SDK's.
    const sdks = mode === 'first';
    return { callMs: sdks ? Number(callMs.toFixed(2)) : 0, callWallMs: sdks ? Number(callWallMs.toFixed(2)) : 0, ...gap(gaps) };
  } finally {
    await sink.close();
  }
}
