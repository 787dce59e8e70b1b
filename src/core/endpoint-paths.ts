/**
 * Where each endpoint of the service is: its verb, its path and whether it stores what it
 * is sent. Plain data with no schema, so that the recorder and the resources reach the
 * service without loading zod; `endpoints.ts` adds the schemas to each, for the typed
 * calls, which load them at their first request.
 */

/**
 * The HTTP verbs the service uses.
 *
 * @example
 * ```ts
 * const method: HttpMethod = ENDPOINT_PATHS.updateEligibleUsers.method; // 'PUT'
 * ```
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One endpoint's place: verb and path.
 *
 * @example
 * ```ts
 * const place: EndpointPath = ENDPOINT_PATHS.sendConversation;
 * ```
 */
export interface EndpointPath<Path extends string = string> {
  readonly method: HttpMethod;
  /**
   * Below the base URL, with its leading slash. A `{name}` in it is filled with the
   * param of that name; a GET's other params go in the query string.
   */
  readonly path: Path;
  /**
   * The endpoint stores what it is sent (an interaction, a conversation, feedback, tags): every
   * POST to it carries an `Idempotency-Key`, the same on each retry, so that a repeat
   * counts once.
   */
  readonly ingests?: true;
}

const ELIGIBLE_USERS = '/api/external/eligible-users';
const PLATFORM_USERS = '/api/external/platform-users';
const INGESTS = { ingests: true } as const;

/**
 * Every endpoint of the service, written once (for each path, the methods in the order a
 * 405's `Allow` lists them).
 *
 * @example
 * ```ts
 * const { method, path } = ENDPOINT_PATHS.listEligibleUsers; // 'GET' and the eligible users' path
 * ```
 */
export const ENDPOINT_PATHS = {
  sendInteraction: { method: 'POST', path: '/event-ingestion/api/v3/events/trace_interaction', ...INGESTS },
  deleteInteractions: { method: 'POST', path: '/api/external/projects/delete-interactions' },
  sendConversation: { method: 'POST', path: '/event-ingestion/api/v2/events/trace_conversation', ...INGESTS },
  sendFeedback: { method: 'POST', path: '/event-ingestion/api/v1/events/feedback', ...INGESTS },
  listEligibleUsers: { method: 'GET', path: ELIGIBLE_USERS },
  insertEligibleUsers: { method: 'POST', path: ELIGIBLE_USERS },
  updateEligibleUsers: { method: 'PUT', path: ELIGIBLE_USERS },
  deleteEligibleUsers: { method: 'DELETE', path: ELIGIBLE_USERS },
  listPlatformUsers: { method: 'GET', path: PLATFORM_USERS },
  insertPlatformUsers: { method: 'PUT', path: PLATFORM_USERS },
  updatePlatformUsers: { method: 'POST', path: PLATFORM_USERS },
  deletePlatformUsers: { method: 'DELETE', path: PLATFORM_USERS },
  getVariants: { method: 'POST', path: '/api/external/variants' },
  listInteractions: { method: 'POST', path: '/api/external/get-interactions' },
  exportInteractions: { method: 'GET', path: '/api/external/export/interactions' },
  getInteractionDetail: { method: 'GET', path: '/api/external/export/interactions/detail/{interaction_id}' },
  addTags: { method: 'POST', path: '/event-ingestion/api/v2/events/tags', ...INGESTS },
} as const satisfies Record<string, EndpointPath>;

/**
 * The name of an endpoint.
 *
 * @example
 * ```ts
 * const name: EndpointName = 'sendConversation';
 * ```
 */
export type EndpointName = keyof typeof ENDPOINT_PATHS;

