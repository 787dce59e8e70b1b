// Checks the package as users get it: packs the tarball once, then lints it with
// publint (exports map, files, module formats) and @arethetypeswrong/cli (types for
// ESM and CommonJS under every resolution mode users have). Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'nebuly-pack-'));
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });
try {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { encoding: 'utf8' }),
  );
  const tarball = join(dir, filename);
  console.log(`\n== publint ${filename}`);
  run('npx', ['--no-install', 'publint', 'run', tarball, '--strict']);
  console.log(`\n== attw ${filename}`);
  // Every resolution mode, node10 (TypeScript's legacy `moduleResolution: node`) too:
  // typesVersions in package.json maps the subpath entries for it.
  run('npx', ['--no-install', 'attw', tarball]);
  console.log('\n== integration entries share the main entry\'s classes (ESM and CommonJS)');
  run(process.execPath, ['scripts/check-integration-entries.mjs']);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
