import type * as z from 'zod/mini';
import { sendConversationParamsSchema } from '../schemas/conversations.js';
import { sendFeedbackParamsSchema } from '../schemas/feedback-event.js';
import { deleteInteractionsParamsSchema } from '../schemas/filters.js';
import { sendInteractionParamsSchema } from '../schemas/interactions.js';
import {
  exportWindowParamsSchema,
  exportWindowResponseSchema,
  interactionDetailParamsSchema,
  interactionDetailSchema,
  interactionsPageSchema,
  listInteractionsParamsSchema,
} from '../schemas/reading.js';
import { messageResponseSchema } from '../schemas/responses.js';
import { addTagsParamsSchema } from '../schemas/tags.js';
import { variantsParamsSchema, variantsResponseSchema } from '../schemas/variants.js';
import { deleteUsersParamsSchema, usersParamsSchema, usersResponseSchema } from '../schemas/users.js';
import { ENDPOINT_PATHS, type EndpointName, type EndpointPath } from './endpoint-paths.js';

export type { EndpointName, HttpMethod } from './endpoint-paths.js';

/**
 * One endpoint of the service: its verb and path ({@link ENDPOINT_PATHS}), the schema of
 * its JSON body (none for a GET), and the schema of its response (none for an ingestion
 * endpoint, where any 2xx is success whatever its body).
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
> extends EndpointPath<Path> {
  readonly params: P;
  readonly response: R;
}

function endpoint<P extends z.ZodMiniType | undefined, R extends z.ZodMiniType | undefined, Path extends string>(
  place: EndpointPath<Path>,
  params: P,
  response: R,
): Endpoint<P, R, Path> {
  return { ...place, params, response };
}

const E = ENDPOINT_PATHS;

/**
 * Every endpoint of the service with its schemas: the typed calls validate and parse
 * with it, the reference server and its MSW handlers route by it. Loaded with zod, at a
 * typed call's first request; what only needs a path reads {@link ENDPOINT_PATHS}.
 *
 * @example
 * ```ts
 * const { method, path } = ENDPOINTS.listEligibleUsers; // 'GET' and the eligible users' path
 * ```
 */
export const ENDPOINTS = {
  sendInteraction: endpoint(E.sendInteraction, sendInteractionParamsSchema, undefined),
  deleteInteractions: endpoint(E.deleteInteractions, deleteInteractionsParamsSchema, messageResponseSchema),
  sendConversation: endpoint(E.sendConversation, sendConversationParamsSchema, undefined),
  sendFeedback: endpoint(E.sendFeedback, sendFeedbackParamsSchema, undefined),
  listEligibleUsers: endpoint(E.listEligibleUsers, undefined, usersResponseSchema),
  insertEligibleUsers: endpoint(E.insertEligibleUsers, usersParamsSchema, usersResponseSchema),
  updateEligibleUsers: endpoint(E.updateEligibleUsers, usersParamsSchema, usersResponseSchema),
  deleteEligibleUsers: endpoint(E.deleteEligibleUsers, deleteUsersParamsSchema, messageResponseSchema),
  listPlatformUsers: endpoint(E.listPlatformUsers, undefined, usersResponseSchema),
  insertPlatformUsers: endpoint(E.insertPlatformUsers, usersParamsSchema, usersResponseSchema),
  updatePlatformUsers: endpoint(E.updatePlatformUsers, usersParamsSchema, usersResponseSchema),
  deletePlatformUsers: endpoint(E.deletePlatformUsers, deleteUsersParamsSchema, messageResponseSchema),
  getVariants: endpoint(E.getVariants, variantsParamsSchema, variantsResponseSchema),
  listInteractions: endpoint(E.listInteractions, listInteractionsParamsSchema, interactionsPageSchema),
  exportInteractions: endpoint(E.exportInteractions, exportWindowParamsSchema, exportWindowResponseSchema),
  getInteractionDetail: endpoint(E.getInteractionDetail, interactionDetailParamsSchema, interactionDetailSchema),
  // The service's answer to tags is not documented: any 2xx is success, as for ingestion.
  addTags: endpoint(E.addTags, addTagsParamsSchema, undefined),
} as const satisfies Record<EndpointName, Endpoint>;

