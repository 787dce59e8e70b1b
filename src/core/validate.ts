import * as z from 'zod/mini';
import { toIssues } from '../schemas/issues.js';
import { type Issue } from '../utils/issues.js';
import { MAX_JSON_DEPTH } from '../schemas/json.js';
import { ValidationError } from './errors.js';

/** How many values {@link unreadableIssues} reads at most while looking for the culprits. */
const MAX_VALUES_SEARCHED = 10_000;

type Path = (string | number)[];

/**
 * Where in `root` reads throw (a getter, a revoked Proxy, a Proxy trap), found by
 * reading it again breadth-first, each read on its own, within bounds.
 */
function unreadablePaths(root: unknown): Path[] {
  const found: Path[] = [];
  const queue: { value: unknown; path: Path }[] = [{ value: root, path: [] }];
  for (let index = 0; index < queue.length && index < MAX_VALUES_SEARCHED; index += 1) {
    const { value, path } = queue[index] as (typeof queue)[number];
    if (typeof value !== 'object' || value === null || path.length > MAX_JSON_DEPTH) continue;
    let keys: (string | number)[];
    try {
      keys = Array.isArray(value) ? Array.from(value.keys()) : Object.keys(value);
    } catch {
      found.push(path);
      continue;
    }
    for (const key of keys) {
      if (queue.length >= MAX_VALUES_SEARCHED) break;
      try {
        queue.push({ value: (value as Record<string | number, unknown>)[key], path: [...path, key] });
      } catch {
        found.push([...path, key]);
      }
    }
  }
  return found;
}

/**
 * The issues for a value that threw while being read, one per place that throws; the
 * value itself when the culprit does not show again.
 */
function unreadableIssues(value: unknown): Issue[] {
  const paths = unreadablePaths(value);
  return (paths.length === 0 ? [[]] : paths).map((path) => ({
    path,
    message: 'could not be read (a getter or Proxy threw)',
    code: 'custom',
  }));
}

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
 * a revoked Proxy that throws while being read is a problem of the input too.
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
  if (!result.success) throw new ValidationError(result.issues.map(relocate), subject);
  return result.data;
}
