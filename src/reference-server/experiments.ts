import * as z from 'zod/mini';
import { toIssues } from '../schemas/issues.js';
import { variantSchema } from '../schemas/variants.js';
import { formatPath } from '../utils/issues.js';
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

const experimentsSchema = z.record(z.string().check(z.minLength(1, 'must not be empty')), z.array(variantSchema));

/**
 * Checks experiments (the `experiments` option, or the JSON of the bin's
 * `--experiments` file): an object of feature flags, each a list of variants as
 * `/variants` answers them. Throws a `TypeError` naming where it is wrong.
 *
 * @example
 * ```ts
 * checkExperiments(JSON.parse(await readFile('experiments.json', 'utf8')), 'experiments.json');
 * ```
 */
export function checkExperiments(value: unknown, where: string): Experiments {
  const result = z.safeParse(experimentsSchema, value);
  if (!result.success) {
    const [issue] = toIssues(result.error.issues, value);
    const at = issue === undefined || issue.path.length === 0 ? '' : ` at ${formatPath(issue.path)}`;
    throw new TypeError(`reference server: ${where}${at} ${issue?.message ?? 'is not valid'}: give { flag: [variant, …] }, each variant { kind: 'prompt' | 'model' | 'rag_source', …, config_params: [] }`);
  }
  return result.data as Experiments;
}
