import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUNDLED_PACKAGES, NOTICES_FILE, notices } from '../../scripts/third-party-notices.js';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  files: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

// What dist/ in fact bundles is checked against the same list after a build, by
// `npm run check:package` (esbuild's `// node_modules/<package>/` markers).
describe(NOTICES_FILE, () => {
  it('holds the licence text of every bundled package, as their licence files in node_modules say (`npm run build` writes it)', () => {
    const committed = readFileSync(new URL(NOTICES_FILE, root), 'utf8');
    expect(committed).toBe(notices(BUNDLED_PACKAGES));
    for (const name of BUNDLED_PACKAGES) expect(committed).toMatch(new RegExp(`^## ${name} \\d+\\.\\d+\\.\\d+\\n\\nLicence: MIT\\n\\n\`\`\`text\\nMIT License`, 'm'));
  });

  it('ships in the tarball with the project’s LICENSE; a bundled package is no dependency (shipped once)', () => {
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'LICENSE', NOTICES_FILE]));
    expect(readFileSync(new URL('LICENSE', root), 'utf8')).toMatch(/^MIT License\n/);
    for (const name of BUNDLED_PACKAGES) {
      expect(manifest.dependencies?.[name], name).toBeUndefined();
      expect(manifest.peerDependencies?.[name], name).toBeUndefined();
    }
  });

  it('lists what tsup bundles: tsup.config.ts takes its noExternal from the same list', () => {
    const config = readFileSync(new URL('tsup.config.ts', root), 'utf8');
    expect(config.match(/noExternal: \[\.\.\.BUNDLED_PACKAGES\]/g)).toHaveLength(2);
    expect(config).not.toMatch(/noExternal: \['/);
  });
});
