import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONS_DOC, optionsDoc } from '../../scripts/options-table.js';
import { RECORDER_OPTIONS } from '../../src/core/recorder-options.js';
import { CLIENT_OPTIONS } from '../../src/core/resolve-options.js';

// Type-checking the option interfaces takes seconds, more on a loaded machine.
describe('docs/options.md', { timeout: 120_000 }, () => {
  it('holds the tables the option specs make (run `npm run docs:options` after changing an option)', () => {
    const current = readFileSync(OPTIONS_DOC, 'utf8');
    expect(current).toBe(optionsDoc(current));
  });

  it('lists every option of the client and of the recorder, with the defaults the client applies', () => {
    const doc = readFileSync(OPTIONS_DOC, 'utf8');
    for (const name of Object.keys(CLIENT_OPTIONS).filter((option) => option !== 'recorder')) expect(doc).toContain(`| \`${name}\` |`);
    for (const name of Object.keys(RECORDER_OPTIONS)) expect(doc).toContain(`| \`recorder.${name}\` |`);
    expect(doc).toContain('| `recorder.leaseMs` | `number` | `300_000` |');
    expect(doc).toContain('| `region` | `Region` | `\'us\'` | `NEBULY_REGION` |');
  });
});
