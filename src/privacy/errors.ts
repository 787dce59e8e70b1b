import { NebulyError } from '../core/nebuly-error.js';
import type { PayloadKind } from '../core/privacy-options.js';
import { formatPath, type Issue, listBounded } from '../utils/issues.js';

/**
 * Why a mask failed: it threw, or it returned something that is not a valid body of its
 * kind (not an object, a `Promise`, a field of the wrong type).
 *
 * @example
 * ```ts
 * if (error instanceof MaskError && error.code === 'mask_threw') alerts.page('the PII mask is broken');
 * ```
 */
export type MaskErrorCode = 'mask_threw' | 'mask_invalid';

/**
 * What stands in for each content field of a body whose mask failed. Here, beside the
 * error that names it, not in `apply-mask.ts`: the package root exports it, and
 * `apply-mask.ts` imports zod, which a bundle that never masks should not load.
 *
 * @example
 * ```ts
 * outcome.body?.conversation.interactions[0]?.input === MASK_FAILED; // after a mask threw
 * ```
 */
export const MASK_FAILED = '[MASK FAILED]';

/**
 * What went out instead of the masked body: the body with every content field replaced
 * by {@link MASK_FAILED}, or nothing (when even that was not a valid body: the mask changed
 * the body it was given before it failed).
 *
 * @example
 * ```ts
 * const sent: MaskFallback = 'placeholder';
 * ```
 */
export type MaskFallback = 'placeholder' | 'withheld';

/**
 * The client's `mask` failed on a body, so nothing of it went out unmasked: its content
 * fields were sent as {@link MASK_FAILED} ({@link MaskError.fallback} `'placeholder'`), or
 * it was not sent (`'withheld'`). Reported to `onError`; a call of yours whose body was
 * withheld rejects with it. It never holds the body's content: not the mask's own error
 * either, whose message might quote it, only that error's name.
 *
 * @example
 * ```ts
 * new NebulyClient({
 *   mask: maskPII,
 *   onError(error) {
 *     if (error instanceof MaskError) metrics.increment('mask_failed', { kind: error.kind, code: error.code });
 *   },
 * });
 * ```
 */
export class MaskError extends NebulyError {
  override name = 'MaskError';
  readonly code: MaskErrorCode;
  /** The kind of body. */
  readonly kind: PayloadKind;
  /** What was sent instead. */
  readonly fallback: MaskFallback;
  /** For `mask_invalid` on a body of the wrong shape: where it was wrong (paths and rules, no values). */
  readonly issues: readonly Issue[];

  /** @internal Made by the SDK when a mask fails. */
  constructor(code: MaskErrorCode, kind: PayloadKind, fallback: MaskFallback, what: string, issues: readonly Issue[] = []) {
    const listed = issues.length === 0 ? '' : `: ${listBounded(issues, (issue) => `${formatPath(issue.path)} ${issue.message}`)}`;
    const outcome =
      fallback === 'placeholder'
        ? `its content fields were sent as ${MASK_FAILED}`
        : 'it was not sent (the mask had changed it before failing)';
    super(`The mask ${what} on a ${kind} body, so ${outcome}${listed}`);
    this.code = code;
    this.kind = kind;
    this.fallback = fallback;
    this.issues = issues;
  }
}
