import { parseOrThrow, readOrThrow } from '../core/validate.js';
import * as schemas from '../schemas/public.js';

/**
 * What the builders and the root's deprecated schema exports check with: the wire
 * schemas and the checks that throw a {@link ValidationError}. Reached only through
 * `zodChecks()` (`zod-checks-now.ts`), which decides when zod is evaluated.
 *
 * @example
 * ```ts
 * const { parseOrThrow, schemas } = zodChecks();
 * const step = parseOrThrow(schemas.llmStepSchema, input, 'LLM step');
 * ```
 */
export const ZOD_CHECKS = { parseOrThrow, readOrThrow, schemas };

/** The type of {@link ZOD_CHECKS}. */
export type ZodChecks = typeof ZOD_CHECKS;
