import * as z from 'zod/mini';
import { toIssues } from '../schemas/issues.js';
import { ValidationError } from './errors.js';

/**
 * Validates `value` against a wire schema and returns what goes on the wire; throws a
 * {@link ValidationError} that lists every problem by path.
 */
export function parseOrThrow<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  subject = 'params',
): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw new ValidationError(toIssues(result.error.issues, value), subject);
  return result.data;
}
