import type * as z from 'zod/mini';
import { sendConversationParamsSchema } from '../schemas/conversations.js';
import { sendFeedbackParamsSchema } from '../schemas/feedback-event.js';
import { deleteInteractionsParamsSchema } from '../schemas/filters.js';
import { sendInteractionParamsSchema } from '../schemas/interactions.js';
import { messageResponseSchema } from '../schemas/responses.js';
import { deleteUsersParamsSchema, usersParamsSchema, usersResponseSchema } from '../schemas/users.js';

/**
 * The HTTP verbs the service uses.
 *
 * @example
 * ```ts
 * const method: HttpMethod = ENDPOINTS.updateEligibleUsers.method; // 'PUT'
 * ```
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One endpoint of the service: its verb and path, the schema of its JSON body (none for
 * a GET), and the schema of its response (none for an ingestion endpoint, where any 2xx is
 * success whatever its body).
 *
 * @example
 * ```ts
 * const list: Endpoint = ENDPOINTS.listPlatformUsers; // GET, no params, usersResponseSchema
 * ```
 */
export interface Endpoint<
  P extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  R extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  Path extends string = string,
> {
  readonly method: HttpMethod;
  /** Below the base URL, with its leading slash. */
  readonly path: Path;
  readonly params: P;
  readonly response: R;
  /**
   * The endpoint stores what it is sent (an interaction, a conversation, feedback): every
   * POST to it carries an `Idempotency-Key`, the same on each retry, so that a repeat
   * counts once.
   */
  readonly ingests?: true;
}

function endpoint<P extends z.ZodMiniType | undefined, R extends z.ZodMiniType | undefined, Path extends string>(
  method: HttpMethod,
  path: Path,
  params: P,
  response: R,
  flags: { ingests?: true } = {},
): Endpoint<P, R, Path> {
  return { method, path, params, response, ...flags };
}

const ELIGIBLE_USERS = '/api/external/eligible-users';
const PLATFORM_USERS = '/api/external/platform-users';

/**
 * Every endpoint of the service, written once (for each path, the methods in the order a
 * 405's `Allow` lists them): the resources send through it, the
 * reference server and its MSW handlers route by it, and the recorder posts to
 * `sendConversation`.
 *
 * @example
 * ```ts
 * const { method, path } = ENDPOINTS.listEligibleUsers; // 'GET' and the eligible users' path
 * ```
 */
export const ENDPOINTS = {
  sendInteraction: endpoint('POST', '/event-ingestion/api/v3/events/trace_interaction', sendInteractionParamsSchema, undefined, { ingests: true }),
  deleteInteractions: endpoint('POST', '/api/external/projects/delete-interactions', deleteInteractionsParamsSchema, messageResponseSchema),
  sendConversation: endpoint('POST', '/event-ingestion/api/v2/events/trace_conversation', sendConversationParamsSchema, undefined, { ingests: true }),
  sendFeedback: endpoint('POST', '/event-ingestion/api/v1/events/feedback', sendFeedbackParamsSchema, undefined, { ingests: true }),
  listEligibleUsers: endpoint('GET', ELIGIBLE_USERS, undefined, usersResponseSchema),
  insertEligibleUsers: endpoint('POST', ELIGIBLE_USERS, usersParamsSchema, usersResponseSchema),
  updateEligibleUsers: endpoint('PUT', ELIGIBLE_USERS, usersParamsSchema, usersResponseSchema),
  deleteEligibleUsers: endpoint('DELETE', ELIGIBLE_USERS, deleteUsersParamsSchema, messageResponseSchema),
  listPlatformUsers: endpoint('GET', PLATFORM_USERS, undefined, usersResponseSchema),
  insertPlatformUsers: endpoint('PUT', PLATFORM_USERS, usersParamsSchema, usersResponseSchema),
  updatePlatformUsers: endpoint('POST', PLATFORM_USERS, usersParamsSchema, usersResponseSchema),
} as const;

/**
 * The name of an endpoint of {@link ENDPOINTS}.
 *
 * @example
 * ```ts
 * const name: EndpointName = 'sendConversation';
 * ```
 */
export type EndpointName = keyof typeof ENDPOINTS;
