import type { ZodChecks } from './zod-checks.js';

/**
 * What the first call made. Kept: each bundled `require` copies the module's exports into
 * a new object, which made a builder call 2.6 times as long (2.0 µs against 0.77).
 */
let made: ZodChecks | undefined;

/**
 * `zod-checks-now.ts` in Node's build (`scripts/node-variants.ts`). esbuild bundles this
 * `require` like an import, with no file read at run time, but wraps the modules it
 * reaches (zod, the schemas) in a function that runs at the first call: importing the
 * package then compiles zod without evaluating it (12 ms against 17 for `import` and
 * `new NebulyClient`; decision 0004). Node only: a bundle for a browser keeps the plain
 * import, which its bundler drops when nothing uses it.
 *
 * @example
 * ```ts
 * const { parseOrThrow, schemas } = zodChecks(); // zod and the schemas made here, once
 * ```
 */
export function zodChecks(): ZodChecks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- bundled by esbuild: a deferred import, not a CommonJS load
  return (made ??= (require('./zod-checks.js') as typeof import('./zod-checks.js')).ZOD_CHECKS);
}
