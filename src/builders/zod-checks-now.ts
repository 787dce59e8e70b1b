import { ZOD_CHECKS, type ZodChecks } from './zod-checks.js';

/**
 * The wire schemas and the checks written with zod, for code that must answer at once
 * (the builders, the root's deprecated schemas). Here they are imported with this module;
 * Node's build replaces it with `zod-checks-now.node.ts`, which makes them at the first
 * call, so that importing the package does not evaluate zod and the schemas.
 *
 * @example
 * ```ts
 * const { parseOrThrow, schemas } = zodChecks();
 * return parseOrThrow(schemas.feedbackActionSchema, action, 'feedback action');
 * ```
 */
export function zodChecks(): ZodChecks {
  return ZOD_CHECKS;
}
