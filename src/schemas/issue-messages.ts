import type * as z from 'zod/mini';
import { UNREADABLE } from '../utils/issues.js';

// The words of every issue, with no zod in them: `issues.ts` words zod's issues with them,
// and the recorder's own checks (`plain-checks.ts`) word theirs the same, without loading zod.

/** An issue as zod makes it: the plain checks make theirs in the same form. */
export type RawIssue = z.core.$ZodIssue;

/**
 * The value at `path` in `root`, read again; {@link UNREADABLE} when a read throws.
 *
 * @example
 * ```ts
 * valueAt({ a: [1, 2] }, ['a', 1]); // 2
 * ```
 */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  try {
    for (const key of path) {
      if (typeof value !== 'object' || value === null) return undefined;
      value = (value as Record<PropertyKey, unknown>)[key];
    }
  } catch {
    return UNREADABLE;
  }
  return value;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  record: 'an object',
  date: 'a Date',
};

function describeType(value: unknown): string {
  if (value === UNREADABLE) return 'a value that could not be read';
  if (value === null) return 'null';
  try {
    if (Array.isArray(value)) return 'an array';
  } catch {
    // A revoked Proxy.
    return 'a value that could not be read';
  }
  if (typeof value === 'number' && !Number.isInteger(value)) return String(value);
  return typeof value;
}

/** `endUser` → `end_user`: the wire's names are snake_case, JavaScript's camelCase. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * For a field that is missing: the key of the same object that is its camelCase
 * spelling (`endUser` for `end_user`), which the caller most likely meant.
 */
function camelCaseOf(root: unknown, path: readonly PropertyKey[]): string | undefined {
  const name = path.at(-1);
  if (typeof name !== 'string' || !name.includes('_')) return undefined;
  const parent = valueAt(root, path.slice(0, -1));
  if (typeof parent !== 'object' || parent === null) return undefined;
  try {
    return Object.keys(parent).find((key) => key !== name && snakeCase(key) === name);
  } catch {
    return undefined; // a Proxy that throws: no hint
  }
}

const LIMIT_UNITS: Record<string, string> = { string: 'characters', array: 'items' };

/**
 * The message of an issue at `path` whose value there is `value`, in words a person can
 * act on: zod/mini ships no messages ("Invalid input") unless a locale is loaded, and a
 * locale would weigh in the bundle. A missing field whose camelCase spelling was given
 * says so.
 *
 * @example
 * ```ts
 * messageOf({ code: 'invalid_type', expected: 'string', message: '' }, 3, { n: 3 }, ['n']); // 'must be a string (got number)'
 * ```
 */
export function messageOf(issue: RawIssue, value: unknown, root: unknown, path: readonly PropertyKey[]): string {
  const message = ownMessageOf(issue, value);
  if (value !== undefined) return message;
  const camel = camelCaseOf(root, path);
  return camel === undefined ? message : `${message} (got \`${camel}\`: did you mean \`${String(path.at(-1))}\`?)`;
}

function ownMessageOf(issue: RawIssue, value: unknown): string {
  if (issue.message !== 'Invalid input' && issue.message !== '' && issue.message !== undefined) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return 'is required';
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected} (got ${describeType(value)})`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'datetime'
        ? 'must be an ISO 8601 date-time string'
        : issue.format === 'date'
          ? 'must be an ISO 8601 date (YYYY-MM-DD)'
          : `must be in ${issue.format} format`;
    case 'too_small':
    case 'too_big': {
      const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const unit = LIMIT_UNITS[issue.origin];
      const bound =
        issue.code === 'too_small'
          ? issue.inclusive === false ? 'more than' : 'at least'
          : issue.inclusive === false ? 'less than' : 'at most';
      return unit === undefined ? `must be ${bound} ${limit}` : `must have ${bound} ${limit} ${unit}`;
    }
    case 'unrecognized_keys':
      return `has unknown keys ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    default:
      return issue.message;
  }
}

