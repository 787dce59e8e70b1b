import type { BodyFilter } from '../core/body-filter.js';
import type { NebulyError } from '../core/errors.js';
import type { IngestPayload, Mask } from '../core/privacy-options.js';
import { applyMask, maskedKindOf } from './apply-mask.js';

/**
 * The {@link BodyFilter} of a client with a `mask`: the body of each call to an endpoint
 * of `MASKED_ENDPOINTS` goes through {@link applyMask}. A failed mask is reported to
 * `onError` when its placeholder body is sent; when the body is withheld, the call
 * rejects with the `MaskError` instead (there is no answer to give it).
 *
 * @example
 * ```ts
 * const http = new HttpCore(resolved, maskingFilter(resolved.mask, resolved.onError));
 * ```
 */
export function maskingFilter(mask: Mask, onError: (error: NebulyError) => void): BodyFilter {
  return (endpoint, body) => {
    const kind = maskedKindOf(endpoint);
    if (kind === undefined) return body;
    const outcome = applyMask(mask, kind, body as IngestPayload);
    if (outcome.body === undefined) throw outcome.error;
    if (outcome.error !== undefined) onError(outcome.error);
    return outcome.body;
  };
}
