import type * as z from 'zod/mini';

/** One problem found in a value: where it is and what is wrong. */
export interface Issue {
  /** Keys and indices from the root of the value, e.g. `['traces', 0, 'messages', 1, 'role']`. */
  path: (string | number)[];
  /** What is wrong, in words a person can act on. */
  message: string;
  /** zod's code for the kind of problem (`invalid_type`, `too_small`, `custom`, …). */
  code: string;
}

type RawIssue = z.core.$ZodIssue;

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
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
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return String(value);
  return typeof value;
}

const LIMIT_UNITS: Record<string, string> = { string: 'characters', array: 'items' };

// zod/mini ships no messages ("Invalid input") unless a locale is loaded; these few lines
// say the same in words a person can act on, without the locale's weight in the bundle.
function messageOf(issue: RawIssue, value: unknown): string {
  if (issue.message !== 'Invalid input' && issue.message !== '') return issue.message;
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

/**
 * Turns zod's issues into a flat list of {@link Issue}s with full paths. `input` is the
 * value that was validated; it is read to tell missing fields from wrong ones.
 */
export function toIssues(issues: readonly RawIssue[], input: unknown): Issue[] {
  return issues.map((issue) => {
    const path = issue.path;
    const value = valueAt(input, path);
    return {
      path: path.map((key) => (typeof key === 'number' ? key : String(key))),
      message: messageOf(issue, value),
      code: issue.code,
    };
  });
}

/** `['traces', 0, 'messages', 1, 'role']` → `traces[0].messages[1].role`. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : text === '' ? key : `.${key}`;
  }
  return text === '' ? '(root)' : text;
}
