import * as z from 'zod/mini';
import { toIssues } from '../schemas/issues.js';
import { type Issue } from '../utils/issues.js';
import { unreadableIssues } from '../schemas/plain-checks.js';
import { ValidationError } from './nebuly-error.js';
import { unknownKeys } from './unknown-keys.js';

/** What {@link safeParseInput} found: the wire value, or every problem by path. */
export type InputResult<T> = { success: true; data: T } | { success: false; issues: Issue[] };

/**
 * Validates a caller's `value` against a wire schema and never throws: zod reads the
 * value as it goes, and a getter or Proxy that throws there is reported as an issue at
 * its path, like any other problem.
 *
 * @example
 * ```ts
 * const result = safeParseInput(llmStepSchema, step);
 * if (!result.success) report(new ValidationError(result.issues, 'LLM step'));
 * ```
 */
export function safeParseInput<S extends z.ZodMiniType>(schema: S, value: unknown): InputResult<z.output<S>> {
  let result: ReturnType<typeof z.safeParse<S>>;
  try {
    result = z.safeParse(schema, value);
  } catch {
    return { success: false, issues: unreadableIssues(value) };
  }
  return result.success ? { success: true, data: result.data } : { success: false, issues: toIssues(result.error.issues, value) };
}

/**
 * Runs `read` on `value` (a destructuring, a copy) and returns its result; a read that
 * throws (a getter, a revoked Proxy) becomes a {@link ValidationError} naming where.
 *
 * @example
 * ```ts
 * const { traces, ...rest } = readOrThrow(params, () => ({ ...params }), 'interaction');
 * ```
 */
export function readOrThrow<T>(value: unknown, read: () => T, subject = 'params'): T {
  try {
    return read();
  } catch {
    throw new ValidationError(unreadableIssues(value), subject);
  }
}

/**
 * Validates `value` against a wire schema and returns what goes on the wire; throws a
 * {@link ValidationError} that lists every problem by path, and nothing else: a getter or
 * a revoked Proxy that throws while being read is a problem of the input too, and so is
 * a key the schema does not know (a misspelled field, which zod alone would drop in
 * silence: {@link unknownKeys}).
 * `relocate` rewrites the paths, for callers whose input is shaped unlike the schema.
 *
 * @example
 * ```ts
 * const body = parseOrThrow(usersParamsSchema, params);
 * ```
 */
export function parseOrThrow<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  subject = 'params',
  relocate: (issue: Issue) => Issue = (issue) => issue,
): z.output<S> {
  const result = safeParseInput(schema, value);
  const unknown = unknownKeys(schema, value);
  const issues = result.success ? unknown : [...result.issues, ...unknown];
  if (issues.length > 0) throw new ValidationError(issues.map(relocate), subject);
  return (result as { data: z.output<S> }).data;
}
