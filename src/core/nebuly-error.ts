// The errors construction and recording report; the others are in errors.ts, loaded
// with the first request (docs/decisions/0004-pay-for-what-you-use.md).
import { formatPath, type Issue, listBounded } from '../utils/issues.js';

/**
 * The base of every error the SDK produces. Catch this to handle them all.
 *
 * No message or property of any SDK error ever holds the API key.
 */
export class NebulyError extends Error {
  override name = 'NebulyError';
}

/**
 * The input was invalid; nothing was sent. {@link ValidationError.issues} lists every
 * problem by path; the message names the first ten and counts the rest, so it stays short
 * however large the input.
 *
 * @example
 * ```ts
 * try {
 *   await nebuly.interactions.send(params);
 * } catch (error) {
 *   if (error instanceof ValidationError) console.log(error.issues);
 * }
 * ```
 */
export class ValidationError extends NebulyError {
  override name = 'ValidationError';
  /** Every problem found, each with its path (`traces[0].messages[1].role`). */
  readonly issues: readonly (Issue & { pathText: string })[];

  constructor(issues: readonly Issue[], subject = 'params') {
    const listed = issues.map(({ path, message, code }) => ({ path, message, code, pathText: formatPath(path) }));
    super(`Invalid ${subject}: ${listBounded(listed, (issue) => `${issue.pathText} ${issue.message}`)}`);
    this.issues = listed;
  }
}
