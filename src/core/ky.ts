import type { KyInstance } from 'ky';

// Loaded on the first request, not at import: evaluating ky touches `Request` and
// `FormData`, which makes Node load its fetch implementation (about 20 ms) even in a
// process that never sends. Shared by every client.
let kyLoaded: Promise<KyInstance> | undefined;
/**
 * ky, loaded once for the process.
 *
 * @example
 * ```ts
 * const ky = await loadKy();
 * ```
 */
export function loadKy(): Promise<KyInstance> {
  kyLoaded ??= import('ky').then(kyOf);
  return kyLoaded;
}

/**
 * ky's function from its module. In the CommonJS build the dynamic import loads a
 * CommonJS chunk, whose `default` is the chunk's exports object, with ky one level down.
 */
function kyOf(module: { default: unknown }): KyInstance {
  const exported = module.default;
  return (typeof exported === 'function' ? exported : (exported as { default: unknown }).default) as KyInstance;
}
