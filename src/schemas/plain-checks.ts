/**
 * The checks of the recorder's simplest wire types (`nonEmptyString`, `tags`), written
 * out without zod so that recording loads none: they accept what the schemas of
 * `common.ts` accept, give the same output, and report the same issues, worded by
 * `issue-messages.ts` as `toIssues` words zod's (test/fuzz/plain-checks.test.ts holds
 * them equal). Also the search for what threw while a value was read, which every check
 * shares.
 */
import { type Issue } from '../utils/issues.js';
import { messageOf, type RawIssue, valueAt } from './issue-messages.js';
import { FEEDBACK_SLUGS } from './wire-fields.js';

/**
 * The deepest nesting accepted inside free-form JSON (message content parts). Real
 * content parts nest a few levels; the bound keeps every reader of the data, the
 * reference server's store included, within the stack.
 */
export const MAX_JSON_DEPTH = 100;

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
 * The issues for a value that threw while being checked, one per place that throws; the
 * value itself when the culprit does not show again.
 *
 * @example
 * ```ts
 * try { check(value); } catch { issues.push(...unreadableIssues(value)); }
 * ```
 */
export function unreadableIssues(value: unknown): Issue[] {
  const paths = unreadablePaths(value);
  return (paths.length === 0 ? [[]] : paths).map((path) => ({
    path,
    message: 'could not be read (a getter or Proxy threw)',
    code: 'custom',
  }));
}

/**
 * Collects the issues of one checked value, worded as `toIssues` words zod's: each at its
 * full path from `root`, the value that was checked.
 *
 * @example
 * ```ts
 * const found = new Found(read);
 * checkNonEmptyString(read.end_user, ['end_user'], found);
 * if (found.issues.length > 0) report(found.issues);
 * ```
 */
export class Found {
  readonly issues: Issue[] = [];
  readonly #root: unknown;

  constructor(root: unknown) {
    this.#root = root;
  }

  /** An issue of zod's form (its message 'Invalid input' unless the schema gives one) at `path`. */
  add(path: readonly PropertyKey[], issue: { code: RawIssue['code']; message: string; [detail: string]: unknown }): void {
    this.issues.push({
      path: path.map((key) => (typeof key === 'number' ? key : String(key))),
      message: messageOf({ ...issue, path: [...path] } as RawIssue, valueAt(this.#root, path), this.#root, path),
      code: issue.code,
    });
  }
}

/**
 * `nonEmptyString`: a string, not empty. Whether `value` is one; the issue goes to `found`.
 *
 * @example
 * ```ts
 * if (checkNonEmptyString(read.end_user, ['end_user'], found)) endUser = read.end_user;
 * ```
 */
export function checkNonEmptyString(value: unknown, path: readonly PropertyKey[], found: Found): value is string {
  const isString = typeof value === 'string';
  if (!isString) found.add(path, { code: 'invalid_type', expected: 'string', message: 'Invalid input' });
  // As zod's `minLength`, which runs on anything with a `length`, a string or not.
  if (value === undefined || value === null) return false;
  const length: unknown = (value as { length?: unknown }).length;
  if (length !== undefined && !((length as number) >= 1)) {
    const origin = Array.isArray(value) ? 'array' : isString ? 'string' : 'unknown';
    found.add(path, { code: 'too_small', origin, minimum: 1, inclusive: true, message: 'must not be empty' });
    return false;
  }
  return isString;
}

/** zod's test for a record: an object whose constructor, if any, is Object's in some realm. */
function isRecordLike(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const constructor: unknown = (value as { constructor?: unknown }).constructor;
  if (constructor === undefined || typeof constructor !== 'function') return true;
  const prototype: unknown = constructor.prototype;
  if (typeof prototype !== 'object' || prototype === null || Array.isArray(prototype)) return false;
  return Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}

/**
 * `tags`: an object of string values. Its copy as the schema outputs it (string keys,
 * in their order), or `undefined` with the issues in `found`: an own `__proto__` key
 * alone (refused by name, as the schema does before it reads the rest), else each value
 * that is no string, each symbol key. May throw where reading
 * `value` throws, as zod would: the caller reports {@link unreadableIssues}.
 *
 * @example
 * ```ts
 * const tags = checkTags(read.tags, ['tags'], found);
 * ```
 */
export function checkTags(value: unknown, path: readonly PropertyKey[], found: Found): Record<string, string> | undefined {
  if (!isRecordLike(value)) {
    found.add(path, { code: 'invalid_type', expected: 'record', message: 'Invalid input' });
    return undefined;
  }
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) {
    found.add([...path, '__proto__'], { code: 'custom', message: PROTO_TAG_MESSAGE });
    return undefined;
  }
  const before = found.issues.length;
  const copy: Record<string, string> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (!Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    if (typeof key === 'symbol') {
      found.add([...path, key], { code: 'invalid_key', origin: 'record', issues: [], message: 'Invalid input' });
      continue;
    }
    const item = value[key];
    if (typeof item === 'string') copy[key] = item;
    else found.add([...path, key], { code: 'invalid_type', expected: 'string', message: 'Invalid input' });
  }
  return found.issues.length === before ? copy : undefined;
}

/** Why a tag named `__proto__` is refused: a JavaScript object cannot carry it faithfully. */
export const PROTO_TAG_MESSAGE = 'a tag may not be named `__proto__`: rename it';

const SLUGS: ReadonlySet<unknown> = new Set(FEEDBACK_SLUGS);

/**
 * The fields of a feedback action as read: each key present, its value possibly `undefined`.
 *
 * @example
 * ```ts
 * const fields: FeedbackFields = { slug: 'thumbs_up', text: undefined, value: undefined };
 * ```
 */
export interface FeedbackFields {
  slug: unknown;
  text: unknown;
  value: unknown;
}

/**
 * `conversationFeedbackActionSchema`: a slug the service knows, an optional text, an
 * optional number only with `rating`. The action as the schema outputs it, or `undefined`
 * with the issues in `found`, at `path` (the action's own).
 *
 * @example
 * ```ts
 * const action = checkFeedbackAction({ slug: 'rating', text: undefined, value: 4 }, [], found);
 * ```
 */
export function checkFeedbackAction(
  fields: FeedbackFields,
  path: readonly PropertyKey[],
  found: Found,
): { slug: (typeof FEEDBACK_SLUGS)[number]; text?: string; value?: number } | undefined {
  const before = found.issues.length;
  const { slug, text, value } = fields;
  if (!SLUGS.has(slug)) found.add([...path, 'slug'], { code: 'invalid_value', values: [...FEEDBACK_SLUGS], message: 'Invalid input' });
  if (text !== undefined && typeof text !== 'string') found.add([...path, 'text'], { code: 'invalid_type', expected: 'string', message: 'Invalid input' });
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value))) {
    found.add([...path, 'value'], { code: 'invalid_type', expected: 'number', message: 'Invalid input' });
  }
  if (found.issues.length > before) return undefined;
  // The schema's own rule runs only on an action whose fields are each valid, as zod's checks do.
  if (value !== undefined && slug !== 'rating') {
    found.add([...path, 'value'], { code: 'custom', message: "is only used with slug 'rating'" });
    return undefined;
  }
  return fields as { slug: (typeof FEEDBACK_SLUGS)[number]; text?: string; value?: number };
}
