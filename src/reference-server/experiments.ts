import type { LookupVariant, Variant } from '../types/variants.js';

/**
 * The A/B experiments the reference serves `/variants` from: each feature flag with its
 * variants. A user is put in one of a flag's variants by a hash of the user and the flag,
 * so the same user always gets the same variant, and users spread over all of them.
 *
 * @example
 * ```ts
 * const experiments: Experiments = {
 *   'new-prompt': [
 *     { kind: 'prompt', prompt: 'You are terse.', config_params: [] },
 *     { kind: 'prompt', prompt: 'You are friendly.', config_params: [{ name: 'temperature', value: 0.7, param_type: 'number' }] },
 *   ],
 * };
 * ```
 */
export type Experiments = Readonly<Record<string, readonly Variant[]>>;

/** FNV-1a, 32 bits: stable across runs and runtimes, spread enough to split users. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The variants `user` is in for `flags`: one per flag that has an experiment with at
 * least one variant, in the order asked; a flag with none is left out.
 *
 * @example
 * ```ts
 * variantsOf(experiments, 'user-1', ['new-prompt', 'unknown']); // [{ feature_flag_name: 'new-prompt', variant: … }]
 * ```
 */
export function variantsOf(experiments: Experiments, user: string, flags: readonly string[]): LookupVariant[] {
  const found: LookupVariant[] = [];
  for (const flag of new Set(flags)) {
    const variants = Object.hasOwn(experiments, flag) ? experiments[flag] : undefined;
    if (variants === undefined || variants.length === 0) continue;
    const variant = variants[fnv1a(`${flag}\u0000${user}`) % variants.length] as Variant;
    found.push({ feature_flag_name: flag, variant: structuredClone(variant) });
  }
  return found;
}
