import * as z from 'zod/mini';
import { type Issue, toIssues } from '../schemas/issues.js';
import { MAX_JSON_DEPTH } from '../schemas/json.js';
import { ValidationError } from './errors.js';

/** How many values {@link unreadableIssue} reads at most while looking for the culprit. */
const MAX_VALUES_SEARCHED = 10_000;

/**
 * Where in `root` a read throws (a getter, a revoked Proxy), found by reading it again
 * breadth-first, within bounds; the root itself when the culprit does not show again.
 */
function unreadablePath(root: unknown): (string | number)[] {
  const queue: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  for (let index = 0; index < queue.length && index < MAX_VALUES_SEARCHED; index += 1) {
    const { value, path } = queue[index] as (typeof queue)[number];
    if (typeof value !== 'object' || value === null || path.length > MAX_JSON_DEPTH) continue;
    let key: string | number = '';
    try {
      if (Array.isArray(value)) {
        for (key = 0; key < value.length; key += 1) queue.push({ value: value[key], path: [...path, key] });
      } else {
        for (key of Object.keys(value)) {
          queue.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
        }
      }
    } catch {
      // A throw before the first key (Proxy traps) is the container's own.
      return key === '' ? path : [...path, key];
    }
  }
  return [];
}

/** The issue for a value that threw while being read. */
function unreadableIssue(value: unknown): Issue {
  return { path: unreadablePath(value), message: 'could not be read (a getter or Proxy threw)', code: 'custom' };
}

/**
 * Runs `read` on `value` (a destructuring, a copy) and returns its result; a read that
 * throws (a getter, a revoked Proxy) becomes a {@link ValidationError} naming where.
 */
export function readOrThrow<T>(value: unknown, read: () => T, subject = 'params'): T {
  try {
    return read();
  } catch {
    throw new ValidationError([unreadableIssue(value)], subject);
  }
}

/**
 * Validates `value` against a wire schema and returns what goes on the wire; throws a
 * {@link ValidationError} that lists every problem by path, and nothing else: a getter or
 * a revoked Proxy that throws while being read is a problem of the input too.
 * `relocate` rewrites the paths, for callers whose input is shaped unlike the schema.
 */
export function parseOrThrow<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  subject = 'params',
  relocate: (issue: Issue) => Issue = (issue) => issue,
): z.output<S> {
  let result: ReturnType<typeof z.safeParse<S>>;
  try {
    result = z.safeParse(schema, value);
  } catch {
    throw new ValidationError([relocate(unreadableIssue(value))], subject);
  }
  if (!result.success) throw new ValidationError(toIssues(result.error.issues, value).map(relocate), subject);
  return result.data;
}
