import * as z from 'zod/mini';
// A named import, not `z.core.config()`: reading a namespace through another keeps the
// whole of zod (its locales, JSON Schema) in a user's bundle, 101 kB gzipped, not 32 kB.
import { config as zodConfig } from 'zod/v4/core';
import { type Issue, UNREADABLE } from '../utils/issues.js';

type RawIssue = z.core.$ZodIssue;

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
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

// zod/mini ships no messages ("Invalid input") unless a locale is loaded; these few lines
// say the same in words a person can act on, without the locale's weight in the bundle.
function messageOf(issue: RawIssue, value: unknown, root: unknown, path: readonly PropertyKey[]): string {
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

/**
 * The most issues a list or a record keeps in place while zod collects them; past it,
 * the rest travel as one summary issue (see {@link capIssues}).
 */
export const ISSUES_KEPT_PER_CONTAINER = 100;

// zod hands a child's issues to its parent with `push(...issues)`, whose arguments live
// on the stack: past about 120,000 (130,000 invalid users) that throws RangeError. Each
// list and record therefore keeps its first issues in place and moves the others, by
// reference, into the params of one summary issue; toIssues puts them back.
const OMITTED = 'nebulyOmittedIssues';

/**
 * A check for every `z.array` and `z.record` whose issues are unbounded: it keeps the
 * first {@link ISSUES_KEPT_PER_CONTAINER} issues where zod can pass them up, and carries
 * the rest in one summary issue, so that no input, however large, overflows zod's stack.
 * {@link toIssues} restores every issue, in order.
 *
 * @example
 * ```ts
 * const outputs = z.array(z.string()).check(capIssues);
 * ```
 */
export const capIssues = z.check<unknown>(
  (payload) => {
    const omitted = payload.issues.splice(ISSUES_KEPT_PER_CONTAINER);
    payload.issues.push({
      code: 'custom',
      message: `and ${omitted.length} more issues`,
      input: payload.value,
      path: [],
      params: { [OMITTED]: omitted },
    });
  },
  { when: (payload) => payload.issues.length > ISSUES_KEPT_PER_CONTAINER },
);

/** The issues a {@link capIssues} summary carries, raw, with paths below its own. */
function omittedBy(issue: RawIssue): readonly z.core.$ZodRawIssue[] | undefined {
  if (issue.code !== 'custom') return undefined;
  const omitted: unknown = issue.params?.[OMITTED];
  return Array.isArray(omitted) ? (omitted as z.core.$ZodRawIssue[]) : undefined;
}

type ErrorMap = ((issue: z.core.$ZodRawIssue) => string | { message: string } | undefined | null) | undefined;

const unwrapMessage = (message: ReturnType<NonNullable<ErrorMap>>) =>
  typeof message === 'string' ? message : (message?.message ?? undefined);

/**
 * A raw issue that zod did not finalize (a {@link capIssues} summary took it first), made
 * the issue zod would have made: its message from the schema or check that raised it,
 * then zod's configured error maps, then zod's default. zod's own `finalizeIssue` is
 * reachable only through its `util` namespace, which a bundler then keeps whole (10 kB).
 */
function finalizeIssue(raw: z.core.$ZodRawIssue, config: z.core.$ZodConfig): RawIssue {
  const maps: ErrorMap[] = [
    raw.inst?._zod.def.error as ErrorMap,
    raw.schema !== raw.inst ? (raw.schema?._zod.def.error as ErrorMap) : undefined,
    config.customError,
    config.localeError,
  ];
  let message = raw.message;
  for (const map of maps) message ||= unwrapMessage(map?.(raw));
  const { inst: _inst, schema: _schema, continue: _continue, input: _input, ...issue } = raw;
  return { ...issue, path: raw.path ?? [], message: message || 'Invalid input' } as RawIssue;
}

/**
 * Turns zod's issues into a flat list of {@link Issue}s with full paths, every one of
 * them, however many there were. `input` is the value that was validated; it is read to
 * tell missing fields from wrong ones.
 */
export function toIssues(issues: readonly RawIssue[], input: unknown): Issue[] {
  const flat: Issue[] = [];
  const config = zodConfig();
  // Recursion depth is the nesting of lists in the schema, not in the data.
  const add = (list: readonly RawIssue[], prefix: readonly PropertyKey[]) => {
    for (const issue of list) {
      const path = prefix.length === 0 ? issue.path : [...prefix, ...issue.path];
      const omitted = omittedBy(issue);
      if (omitted !== undefined) {
        add(omitted.map((raw) => finalizeIssue(raw, config)), path);
        continue;
      }
      flat.push({
        path: path.map((key) => (typeof key === 'number' ? key : String(key))),
        message: messageOf(issue, valueAt(input, path), input, path),
        code: issue.code,
      });
    }
  };
  add(issues, []);
  return flat;
}
