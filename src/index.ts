export { NebulyClient } from './client.js';
export {
  CLIENT_DEFAULTS,
  REGION_BASE_URLS,
  type ClientOptions,
  type Region,
} from './core/options.js';
export type { AcceptedResponse } from './core/http.js';
export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NebulyError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
  UnprocessableEntityError,
  ValidationError,
} from './core/errors.js';
export * from './schemas/index.js';
export { RECORDER_DEFAULTS, type RecorderOptions } from './recorder/options.js';
