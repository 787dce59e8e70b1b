import * as z from 'zod/mini';
import { type Endpoint, type EndpointName, ENDPOINTS } from '../core/endpoints.js';
import { toIssues } from '../schemas/issues.js';
import { json, unlinkedFeedback, validationError } from './responses.js';
import type { ReferenceStore } from './store.js';

/** The paths the reference serves, below the base URL. */
export const REFERENCE_PATHS = {
  interaction: ENDPOINTS.sendInteraction.path,
  conversation: ENDPOINTS.sendConversation.path,
  feedback: ENDPOINTS.sendFeedback.path,
  deleteInteractions: ENDPOINTS.deleteInteractions.path,
  eligibleUsers: ENDPOINTS.listEligibleUsers.path,
  platformUsers: ENDPOINTS.listPlatformUsers.path,
} as const;

/** What a route gets: the store, the caller's project, the parsed JSON body and the request's `Idempotency-Key`. */
interface RouteContext {
  store: ReferenceStore;
  project: string;
  json: unknown;
  idempotencyKey: string | null;
}

/** One method of one path, as the reference serves it. */
export interface Route {
  /** Whether the body is read and parsed as JSON before `run`. */
  readonly readsBody: boolean;
  run(context: RouteContext): Response;
}

/** What the reference does for an endpoint, given the body its params schema gave. */
type Action<E extends Endpoint> = E['params'] extends z.ZodMiniType
  ? (store: ReferenceStore, project: string, body: z.output<E['params']>, idempotencyKey: string | null) => Response
  : (store: ReferenceStore, project: string) => Response;

type AnyAction = (store: ReferenceStore, project: string, body?: unknown, idempotencyKey?: string | null) => Response;

/** The ingestion endpoints respond with this: the service processes ingestion asynchronously. */
const ACCEPTED = { status: 'accepted' } as const;

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

const listUsers: Action<typeof ENDPOINTS.listEligibleUsers> = (store, project) => json({ users: store.listUsers(project) });

const insertUsers: Action<typeof ENDPOINTS.insertEligibleUsers> = (store, project, { users }) =>
  json({ users: store.insertUsers(project, users) });

const updateUsers: Action<typeof ENDPOINTS.updateEligibleUsers> = (store, project, { users }) =>
  json({ users: store.updateUsers(project, users) });

/** Every endpoint's behaviour. Each acts on the caller's project alone. */
const ACTIONS: { readonly [K in EndpointName]: Action<(typeof ENDPOINTS)[K]> } = {
  sendInteraction: (store, project, body, idempotencyKey) => {
    store.addInteraction(project, body, idempotencyKey);
    return json(ACCEPTED, 202);
  },
  deleteInteractions: (store, project, { filters, time_range }) => {
    const deleted = store.deleteInteractions(project, filters, time_range);
    return json({ message: `${plural(deleted, 'interaction')} deleted` });
  },
  sendConversation: (store, project, body, idempotencyKey) => {
    store.addConversation(project, body, idempotencyKey);
    return json(ACCEPTED, 202);
  },
  sendFeedback: (store, project, body, idempotencyKey) => {
    const stored = store.addFeedback(project, body, idempotencyKey);
    return 'reason' in stored ? unlinkedFeedback(stored) : json(ACCEPTED, 202);
  },
  listEligibleUsers: listUsers,
  insertEligibleUsers: insertUsers,
  updateEligibleUsers: updateUsers,
  deleteEligibleUsers: (store, project, { users }) => {
    const { deleted, notFound } = store.deleteUsers(project, users);
    const ignored = notFound.length === 0 ? '' : `; ${notFound.length} not found, ignored`;
    return json({ message: `${plural(deleted.length, 'user')} deleted${ignored}` });
  },
  listPlatformUsers: listUsers,
  // The spec names POST (update) and GET; the service's API reference adds PUT, which
  // sends (inserts) platform users. Its delete is not described, so none is served.
  insertPlatformUsers: insertUsers,
  updatePlatformUsers: updateUsers,
};

/**
 * Other names a body's fields go by, mapped to the schema's before validation. One page
 * of the service's docs names the feedback's `action` `feedback`: both are accepted.
 */
const ALIASES: Partial<Record<EndpointName, Readonly<Record<string, string>>>> = {
  sendFeedback: { feedback: 'action' },
};

function unalias(value: unknown, aliases: Readonly<Record<string, string>> | undefined): unknown {
  if (aliases === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const renamed: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [alias, name] of Object.entries(aliases)) {
    if (Object.hasOwn(renamed, alias) && !Object.hasOwn(renamed, name)) {
      renamed[name] = renamed[alias];
      delete renamed[alias];
    }
  }
  return renamed;
}

/** A route that validates the body with the endpoint's params schema, as the service does, then acts. */
function toRoute(endpoint: Endpoint, action: AnyAction, aliases?: Readonly<Record<string, string>>): Route {
  const schema = endpoint.params;
  if (schema === undefined) return { readsBody: false, run: ({ store, project }) => action(store, project) };
  return {
    readsBody: true,
    run({ store, project, json: sent, idempotencyKey }) {
      const value = unalias(sent, aliases);
      const result = z.safeParse(schema, value);
      if (!result.success) return validationError(toIssues(result.error.issues, value), value);
      return action(store, project, result.data, idempotencyKey);
    },
  };
}

/** Every route, by path then method, from the endpoint table. */
export const ROUTES: Readonly<Record<string, Readonly<Partial<Record<string, Route>>>>> = (() => {
  const routes: Record<string, Record<string, Route>> = {};
  for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
    const endpoint = ENDPOINTS[name];
    (routes[endpoint.path] ??= {})[endpoint.method] = toRoute(endpoint, ACTIONS[name] as AnyAction, ALIASES[name]);
  }
  return routes;
})();

/** Every method some route serves; any other gets 405 on every path. */
export const SERVED_METHODS: readonly string[] = [...new Set(Object.values(ROUTES).flatMap((methods) => Object.keys(methods)))];
