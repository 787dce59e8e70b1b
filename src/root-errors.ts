// The error classes the package root exports that only requests, masks and the
// recorder's outbox make, each a binding of this module. A user's esbuild, splitting,
// loads with the entry every module declaring a name the entry re-exports when a lazy
// chunk shares that module, used or not; a binding declared here is left out, with what
// it imports, when nothing reads it (docs/decisions/0004-pay-for-what-you-use.md). The
// same class objects: `instanceof`, `new` and `extends` work as on the classes, whose
// own TSDoc says more.
import * as errors from './core/errors.js';
import * as privacy from './privacy/errors.js';
import * as recorder from './recorder/errors.js';

/**
 * The request was aborted through its `signal`; `attempts` counts the requests made before.
 *
 * @class
 */
export const AbortError = errors.AbortError;
/** The request was aborted through its `signal`; `attempts` counts the requests made before. */
export type AbortError = errors.AbortError;
/**
 * The service answered with an error status (after retries, when it was retried); a subclass per status.
 *
 * @class
 */
export const APIError = errors.APIError;
/** The service answered with an error status (after retries, when it was retried); a subclass per status. */
export type APIError = errors.APIError;
/**
 * 401: the API key is missing or unknown.
 *
 * @class
 */
export const AuthenticationError = errors.AuthenticationError;
/** 401: the API key is missing or unknown. */
export type AuthenticationError = errors.AuthenticationError;
/**
 * 400: the request was malformed.
 *
 * @class
 */
export const BadRequestError = errors.BadRequestError;
/** 400: the request was malformed. */
export type BadRequestError = errors.BadRequestError;
/**
 * 409: the request conflicts with stored data.
 *
 * @class
 */
export const ConflictError = errors.ConflictError;
/** 409: the request conflicts with stored data. */
export type ConflictError = errors.ConflictError;
/**
 * No answer: the connection failed or was dropped, after every retry.
 *
 * @class
 */
export const ConnectionError = errors.ConnectionError;
/** No answer: the connection failed or was dropped, after every retry. */
export type ConnectionError = errors.ConnectionError;
/**
 * A conversation the recorder could not deliver, with its payload to send again.
 *
 * @class
 */
export const DeliveryError = recorder.DeliveryError;
/** A conversation the recorder could not deliver, with its payload to send again. */
export type DeliveryError = recorder.DeliveryError;
/**
 * 5xx: the service failed; retried before it reaches you.
 *
 * @class
 */
export const InternalServerError = errors.InternalServerError;
/** 5xx: the service failed; retried before it reaches you. */
export type InternalServerError = errors.InternalServerError;
/**
 * The mask threw or returned a body of the wrong shape; what was sent instead is told.
 *
 * @class
 */
export const MaskError = privacy.MaskError;
/** The mask threw or returned a body of the wrong shape; what was sent instead is told. */
export type MaskError = privacy.MaskError;
/**
 * 404: no such endpoint or resource.
 *
 * @class
 */
export const NotFoundError = errors.NotFoundError;
/** 404: no such endpoint or resource. */
export type NotFoundError = errors.NotFoundError;
/**
 * 413: the body is larger than the service takes.
 *
 * @class
 */
export const PayloadTooLargeError = errors.PayloadTooLargeError;
/** 413: the body is larger than the service takes. */
export type PayloadTooLargeError = errors.PayloadTooLargeError;
/**
 * 403: the API key may not do this.
 *
 * @class
 */
export const PermissionDeniedError = errors.PermissionDeniedError;
/** 403: the API key may not do this. */
export type PermissionDeniedError = errors.PermissionDeniedError;
/**
 * Conversations not queued for sending: the queue was at its bound; their payloads are kept on the error.
 *
 * @class
 */
export const QueueFullError = recorder.QueueFullError;
/** Conversations not queued for sending: the queue was at its bound; their payloads are kept on the error. */
export type QueueFullError = recorder.QueueFullError;
/**
 * 429: too many requests; retried with `Retry-After` before it reaches you.
 *
 * @class
 */
export const RateLimitError = errors.RateLimitError;
/** 429: too many requests; retried with `Retry-After` before it reaches you. */
export type RateLimitError = errors.RateLimitError;
/**
 * 3xx: the service answered with a redirect, which the SDK never follows.
 *
 * @class
 */
export const RedirectError = errors.RedirectError;
/** 3xx: the service answered with a redirect, which the SDK never follows. */
export type RedirectError = errors.RedirectError;
/**
 * No answer within `timeoutMs`, on the last attempt.
 *
 * @class
 */
export const TimeoutError = errors.TimeoutError;
/** No answer within `timeoutMs`, on the last attempt. */
export type TimeoutError = errors.TimeoutError;
/**
 * The service answered 2xx with a body that is not what the spec says.
 *
 * @class
 */
export const UnexpectedResponseError = errors.UnexpectedResponseError;
/** The service answered 2xx with a body that is not what the spec says. */
export type UnexpectedResponseError = errors.UnexpectedResponseError;
/**
 * 422: the service rejected the body's fields; the message names them.
 *
 * @class
 */
export const UnprocessableEntityError = errors.UnprocessableEntityError;
/** 422: the service rejected the body's fields; the message names them. */
export type UnprocessableEntityError = errors.UnprocessableEntityError;
/** What a field's content is replaced with when the mask fails (`MaskError`, fallback `placeholder`). */
export const MASK_FAILED = privacy.MASK_FAILED;
