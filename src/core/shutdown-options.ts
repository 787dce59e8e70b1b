import type { Issue } from '../utils/issues.js';
import { checkOptions } from './option-checks.js';
import { number } from './option-kinds.js';

/** The options of `shutdown()` ({@link shutdownOptionIssues}): a duration, `Infinity` included, as `shutdownTimeoutMs` is. */
const SHUTDOWN_OPTIONS = { timeoutMs: number({ min: 0, unit: 'milliseconds' }) };

/**
 * `shutdown({ timeoutMs })`'s options, checked by the rules of every option: the problems
 * found, each at its name (an unknown name with the nearest known one, a value out of
 * range). `shutdown()` never throws: it waits the recorder's `shutdownTimeoutMs` instead
 * and reports them from its background stage, so that a client that never shuts down
 * does not load this.
 *
 * @example
 * ```ts
 * shutdownOptionIssues({ timeout: 5_000 }); // [`timeout` is not a shutdown option; did you mean `timeoutMs`?]
 * ```
 */
export function shutdownOptionIssues(options: unknown): Issue[] {
  const issues: Issue[] = [];
  if (options !== undefined) checkOptions(options, SHUTDOWN_OPTIONS, { path: [], issues }, 'a shutdown option');
  return issues;
}
