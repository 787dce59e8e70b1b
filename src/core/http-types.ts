import type * as z from 'zod/mini';
import type { Endpoint } from './endpoints.js';

/**
 * What an ingestion endpoint responded: any 2xx is success, whatever its body.
 *
 * @example
 * ```ts
 * const { status, body } = await nebuly.conversations.send(params); // 202, { status: 'accepted' }
 * ```
 */
export interface AcceptedResponse {
  /** The HTTP status, 2xx. */
  status: number;
  /** The body: parsed JSON, else its text, else `null` when empty. */
  body: unknown;
}

/**
 * What an endpoint returns: its response schema's output, or, for ingestion, the status and body.
 *
 * @example
 * ```ts
 * type Users = EndpointResult<typeof ENDPOINTS.listEligibleUsers>; // UsersResponse
 * ```
 */
export type EndpointResult<E extends Endpoint> = E['response'] extends z.ZodMiniType
  ? z.output<E['response']>
  : AcceptedResponse;

/**
 * The params of an endpoint as accepted: `undefined` for one that takes no body (a GET).
 *
 * @example
 * ```ts
 * type Params = EndpointParams<typeof ENDPOINTS.deleteEligibleUsers>; // DeleteUsersParams
 * ```
 */
export type EndpointParams<E extends Endpoint> = E['params'] extends z.ZodMiniType ? z.input<E['params']> : undefined;

/**
 * What the recorder hands {@link HttpCore.deliver}: a JSON body, already serialized, and
 * its idempotency key, the same for every retry and every later resend of that body.
 *
 * @example
 * ```ts
 * await http.deliver({ path: ENDPOINT_PATHS.sendConversation.path, body, idempotencyKey, signal });
 * ```
 */
export interface DeliverRequest {
  path: string;
  /** UTF-8 JSON. */
  body: Uint8Array | string;
  idempotencyKey: string;
  /** Aborts the delivery and its retries (the recorder aborts at its shutdown deadline). */
  signal?: AbortSignal | undefined;
}
