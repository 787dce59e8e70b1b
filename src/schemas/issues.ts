import * as z from 'zod/mini';
// A named import, not `z.core.config()`: reading a namespace through another keeps the
// whole of zod (its locales, JSON Schema) in a user's bundle, 101 kB gzipped, not 32 kB.
import { config as zodConfig } from 'zod/v4/core';
import type { Issue } from '../utils/issues.js';
import { messageOf, valueAt } from './issue-messages.js';

type RawIssue = z.core.$ZodIssue;

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
