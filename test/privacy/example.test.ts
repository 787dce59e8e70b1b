import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = 'examples/mask-personal-data.ts';
let server: ReferenceServer;

beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { 'dev-key': 'dev-project' } });
});
afterAll(() => server.close());

describe(EXAMPLE, () => {
  it('sends masked content, and placeholders when the mask throws', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', EXAMPLE], {
      cwd: ROOT,
      timeout: PROCESS_TIMEOUT_MS,
      env: { ...process.env, NEBULY_API_KEY: 'dev-key', NEBULY_BASE_URL: server.url, NEBULY_REGION: '' },
    });
    expect(stdout).toBe(
      'sent masked\n' +
        'onError: MaskError: The mask threw Error on a conversation body, so its content fields were sent as [MASK FAILED]\n' +
        'sent with placeholders\n',
    );
    const [masked, placeholder] = server.store.listInteractions('dev-project');
    expect(masked).toMatchObject({
      input: 'I am [NAME], [EMAIL], card [CARD]. Refund please.',
      output: 'Done, [NAME]: the refund goes to the card ending 1111.',
    });
    expect(placeholder).toMatchObject({ input: '[MASK FAILED]', output: '[MASK FAILED]' });
    expect(JSON.stringify(server.requests.all())).not.toMatch(/Ana|ana\.lima|4111 1111|DE89/);
  });
});

describe('docs/privacy.md', () => {
  it('shows only code that runs: each block is in the example or in a test of test/privacy/', () => {
    const guide = readFileSync(`${ROOT}docs/privacy.md`, 'utf8');
    const sources = [EXAMPLE, ...readdirSync(`${ROOT}test/privacy`).filter((file) => file.endsWith('.test.ts')).map((file) => `test/privacy/${file}`)]
      .map((file) => readFileSync(`${ROOT}${file}`, 'utf8'));
    const blocks = [...guide.matchAll(/```ts\n([^`]*)```/g)].map((match) => match[1]!);
    expect(blocks.length).toBeGreaterThan(1);
    for (const block of blocks) expect(sources.some((source) => source.includes(block)), block).toBe(true);
  });
});
