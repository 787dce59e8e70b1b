import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createSampler } from '../../src/privacy/index.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/sample-users.ts', import.meta.url));
const COUNT = 2000;

/** The decisions of a Node process of its own, one character per user. */
async function decisionsOfProcess(rate: number, key: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT, String(rate), key, String(COUNT)], {
    timeout: PROCESS_TIMEOUT_MS,
  });
  return stdout;
}

describe('the sample across processes', () => {
  it('keeps and drops the same users in every process with the same key, others with another key', async () => {
    const [first, second, other] = await Promise.all([
      decisionsOfProcess(0.3, 'team-key'),
      decisionsOfProcess(0.3, 'team-key'),
      decisionsOfProcess(0.3, 'other-key'),
    ]);
    const sampled = createSampler({ sampleRate: 0.3, sampleKey: 'team-key' });
    let here = '';
    for (let index = 0; index < COUNT; index += 1) here += sampled(`user-${index}`) ? '1' : '0';

    expect(first).toHaveLength(COUNT);
    expect(second).toBe(first);
    expect(here).toBe(first);
    const kept = first.split('').filter((bit) => bit === '1').length;
    expect(kept / COUNT).toBeGreaterThan(0.25);
    expect(kept / COUNT).toBeLessThan(0.35);
    expect(other).toHaveLength(COUNT);
    expect(other).not.toBe(first);
  });
});
