import type { BodyFilter } from '../core/body-filter.js';
import { NebulyError } from '../core/nebuly-error.js';
import type { IngestPayload, Mask } from '../core/privacy-options.js';
import { applyMask, maskedKindOf } from './apply-mask.js';

/**
 * The {@link BodyFilter} of a client with a `mask`: the body of each call to an endpoint
 * of `MASKED_ENDPOINTS` goes through {@link applyMask}. A failed mask is reported to
 * `onError` when its placeholder body is sent; when the body is withheld, the call
 * rejects with the `MaskError` instead (there is no answer to give it). A call to an
 * endpoint marked `ingests` that has no kind rejects, unsent.
 *
 * @example
 * ```ts
 * const http = new HttpCore(resolved, maskingFilter(resolved.mask, resolved.onError));
 * ```
 */
export function maskingFilter(mask: Mask, onError: (error: NebulyError) => void): BodyFilter {
  return (endpoint, body) => {
    const kind = maskedKindOf(endpoint);
    if (kind === undefined) {
      // An endpoint that stores data but whose content fields are not known here: sending
      // it unmasked would break the promise, so nothing is sent (a test keeps this unreachable).
      if (endpoint.ingests === true) throw new NebulyError(`${endpoint.method} ${endpoint.path} has no kind of body to mask; nothing was sent`);
      return body;
    }
    const outcome = applyMask(mask, kind, body as IngestPayload);
    if (outcome.body === undefined) throw outcome.error;
    if (outcome.error !== undefined) onError(outcome.error);
    return outcome.body;
  };
}
