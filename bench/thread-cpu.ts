import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('thread-cpu/thread-cpu.c', import.meta.url));
/** Built in the repository's `.cache/` (gitignored), once per Node major. */
const BUILT = fileURLToPath(new URL(`../.cache/thread-cpu-node${process.versions.node.split('.')[0]}.node`, import.meta.url));

/** Where Node's own headers are: beside the running node (the registry's builds), else the system's (Debian's). */
function nodeHeaders(): string | undefined {
  const candidates = [join(dirname(process.execPath), '..', 'include', 'node'), '/usr/include/node', '/usr/local/include/node'];
  return candidates.find((dir) => existsSync(join(dir, 'node_api.h')));
}

/** Compiles bench/thread-cpu/thread-cpu.c unless its build is newer; `undefined` when it cannot (no compiler, no headers). */
function build(): string | undefined {
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= statSync(SOURCE).mtimeMs) return BUILT;
  const headers = nodeHeaders();
  if (headers === undefined) return undefined;
  try {
    mkdirSync(dirname(BUILT), { recursive: true });
    execFileSync('cc', ['-O2', '-shared', '-fPIC', `-I${headers}`, '-o', BUILT, SOURCE], { stdio: 'pipe' });
    return BUILT;
  } catch {
    return undefined;
  }
}

/**
 * The calling thread's CPU time, ns, read exactly (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`
 * through a small addon compiled here on first use, 0.6 µs a read); `undefined` where it
 * cannot be built (no C compiler or no Node headers) or off Linux-like systems. Node 20
 * has no `process.threadCpuUsage()`.
 *
 * @example
 * ```ts
 * const clock = threadCpuClock();
 * const before = clock?.();
 * ```
 */
export function threadCpuClock(): (() => number) | undefined {
  if (loaded === null) loaded = load();
  return loaded;
}

/** The clock, once loaded (`undefined`: it cannot be); `null` before the first ask. */
let loaded: (() => number) | undefined | null = null;

function load(): (() => number) | undefined {
  const built = build();
  if (built === undefined) return undefined;
  try {
    return createRequire(import.meta.url)(built) as () => number;
  } catch {
    return undefined;
  }
}
