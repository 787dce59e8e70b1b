// What the rest of the SDK uses from privacy/: the recorder (masking and sampling what it
// records), the client (the typed calls' filter) and the package root (maskPII, MaskError).
export { applyMask, MASKED_ENDPOINTS, maskedKindOf, type MaskOutcome } from './apply-mask.js';
export { MASK_FAILED, MaskError, type MaskErrorCode, type MaskFallback } from './errors.js';
export { maskingFilter } from './filter.js';
export { maskPII } from './mask-pii.js';
export { createSampler, isSampled, sipKeyOf } from './sample.js';
