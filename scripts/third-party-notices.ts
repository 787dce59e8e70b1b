// THIRD_PARTY_NOTICES.md: the licence text of every package that dist/ bundles, read from
// its licence file in node_modules. `BUNDLED_PACKAGES` is the one list: tsup.config.ts
// bundles these (`noExternal`), the build writes the notices from it, and
// test/package/third-party-notices.test.ts fails when the committed file differs or when
// dist/ holds code of a package not listed (esbuild marks each bundled module with a
// `// node_modules/<package>/…` comment).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The packages whose code dist/ carries: bundled by tsup, not dependencies. */
export const BUNDLED_PACKAGES: readonly string[] = ['ky', 'zod'];

/** The file the notices go to, at the package root (in `files`, so in the tarball). */
export const NOTICES_FILE = 'THIRD_PARTY_NOTICES.md';

const LICENSE_FILE = /^licen[cs]e(\.md|\.txt)?$/i;

/** The packages named by esbuild's `// node_modules/<package>/` markers in the JS files under `distDir`. */
export function packagesIn(distDir: string): string[] {
  const found = new Set<string>();
  for (const file of readdirSync(distDir, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(c|m)?js$/.test(file)) continue;
    for (const [, name = ''] of readFileSync(join(distDir, file), 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/\n]+\/)?[^/\n]+)\//gm)) {
      found.add(name);
    }
  }
  return [...found].sort();
}

/**
 * The notices for `packages`, each with its version, licence and the full text of its
 * licence file from `nodeModules`.
 *
 * @example
 * ```js
 * writeFileSync('THIRD_PARTY_NOTICES.md', notices(BUNDLED_PACKAGES));
 * ```
 */
export function notices(packages: readonly string[], nodeModules = 'node_modules'): string {
  const sections = packages.map((name) => {
    const dir = join(nodeModules, name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; license: string };
    const licenseFile = readdirSync(dir).find((file) => LICENSE_FILE.test(file));
    if (licenseFile === undefined) throw new Error(`${name} has no licence file in ${dir}: its notice cannot be written`);
    const text = readFileSync(join(dir, licenseFile), 'utf8').trim();
    return `## ${name} ${manifest.version}\n\nLicence: ${manifest.license}\n\n\`\`\`text\n${text}\n\`\`\``;
  });
  return [
    '# Third-party notices',
    '',
    "`nebuly-client`'s dist/ bundles code of the packages below; each one's licence follows.",
    'Written by `scripts/third-party-notices.ts` from their licence files; do not edit.',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  writeFileSync(NOTICES_FILE, notices(BUNDLED_PACKAGES));
  console.log(`third-party-notices: ${NOTICES_FILE} for ${BUNDLED_PACKAGES.join(', ')}`);
}
