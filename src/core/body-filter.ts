import type { Endpoint } from './endpoints.js';

/**
 * What a typed call's body passes through between its validation and its
 * serialization: the client's `mask` (src/privacy/), given by `NebulyClient` to its
 * `HttpCore`, so that every endpoint is covered in one place. It returns the body to
 * send, or throws to send nothing.
 *
 * @example
 * ```ts
 * const filter: BodyFilter = (endpoint, body) => (endpoint === ENDPOINTS.sendConversation ? redact(body) : body);
 * const http = new HttpCore(options, filter);
 * ```
 */
export type BodyFilter = (endpoint: Endpoint, body: unknown) => unknown;
