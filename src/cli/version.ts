import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version of the installed `nebuly-client`, read from its package.json: the nearest
 * one above this module named `nebuly-client` (`dist/` when built, `src/cli/` from source).
 *
 * @example
 * ```ts
 * io.out(`nebuly ${await packageVersion()}\n`); // 'nebuly 0.2.0'
 * ```
 */
export async function packageVersion(): Promise<string> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    try {
      const { name, version } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (name === 'nebuly-client' && typeof version === 'string') return version;
    } catch {
      // No package.json here: look one level up.
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
