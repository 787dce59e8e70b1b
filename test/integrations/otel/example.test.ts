import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS } from '../../helpers/process-timeout.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

it('examples/otel.ts (the recipe of docs/integrations.md, "OpenTelemetry") runs offline and records one interaction', async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/otel.ts'], { cwd: ROOT, timeout: PROCESS_TIMEOUT_MS });
  expect(stderr).not.toContain('[nebuly]');
  expect(stdout).toMatch(
    /- user-7f3a: interaction "Where is my order 42\?" → "Your order 42 has shipped and arrives on Tuesday\."\n\s+llm\s+gpt-4o-2024-08-06: "getOrder.*\(40 → 9 tokens\)\n\s+tool\s+getOrder.*\n\s+llm\s+gpt-4o-2024-08-06: "Your order 42.*\(61 → 12 tokens\)\n/,
  );
});
