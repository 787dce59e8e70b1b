import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run demo (the README’s main job)', () => {
  it('runs the whole scenario against the embedded reference server and exits 0', async () => {
    // The same command as the package.json script, without npm's own output.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
      cwd: ROOT,
      timeout: 30_000,
    });

    expect(stdout).toContain('insert: 3 users inserted');
    expect(stdout).toContain('insert of alice again: 0 inserted');
    expect(stdout).toContain('conversation.end(): delivered');
    expect(stdout).toMatch(/"2 interactions deleted"/);
    expect(stdout).toMatch(/POST\s+\/api\/external\/projects\/delete-interactions\s+200/);
    expect(stdout).toContain('Done: the server is closed.');
    expect(stdout).not.toContain('demo-key');
  });
});
