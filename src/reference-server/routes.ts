import * as z from 'zod/mini';
import { type Endpoint, type EndpointName, ENDPOINTS } from '../core/endpoints.js';
import { toIssues } from '../schemas/issues.js';
import { detail, json, unlinkedFeedback, validationError } from './responses.js';
import type { ReferenceStore } from './store.js';

/** The paths the reference serves, below the base URL. */
export const REFERENCE_PATHS = {
  interaction: ENDPOINTS.sendInteraction.path,
  conversation: ENDPOINTS.sendConversation.path,
  feedback: ENDPOINTS.sendFeedback.path,
  deleteInteractions: ENDPOINTS.deleteInteractions.path,
  eligibleUsers: ENDPOINTS.listEligibleUsers.path,
  platformUsers: ENDPOINTS.listPlatformUsers.path,
  variants: ENDPOINTS.getVariants.path,
  listInteractions: ENDPOINTS.listInteractions.path,
  exportInteractions: ENDPOINTS.exportInteractions.path,
  /** With `{interaction_id}` in it: fill it in. */
  interactionDetail: ENDPOINTS.getInteractionDetail.path,
  tags: ENDPOINTS.addTags.path,
} as const;

/**
 * What a route gets: the store, the caller's project, the parsed JSON body (a GET's
 * query string and path params instead, as an object) and the request's `Idempotency-Key`.
 */
interface RouteContext {
  store: ReferenceStore;
  project: string;
  json: unknown;
  idempotencyKey: string | null;
}

/** Where a GET's params came from, for the `loc` of a validation error: the path or the query. */
type ParamsFrom = (name: string | number | undefined) => 'path' | 'query';

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

/** Deletes users; the message says how many, and how many were not there. */
function deleteUsers(store: ReferenceStore, project: string, users: readonly string[]): { message: string } {
  const { deleted, notFound } = store.deleteUsers(project, users);
  const ignored = notFound.length === 0 ? '' : `; ${notFound.length} not found, ignored`;
  return { message: `${plural(deleted.length, 'user')} deleted${ignored}` };
}

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
  deleteEligibleUsers: (store, project, { users }) => json(deleteUsers(store, project, users)),
  listPlatformUsers: listUsers,
  // The spec names POST (update) and GET; the service's API reference adds PUT, which
  // sends (inserts) platform users, and DELETE.
  insertPlatformUsers: insertUsers,
  updatePlatformUsers: updateUsers,
  deletePlatformUsers: (store, project, { users }) => json(deleteUsers(store, project, users)),
  getVariants: (store, _project, { user, feature_flags }) => json({ variants: store.variants(user, feature_flags) }),
  listInteractions: (store, project, { time_range, filters, limit, offset }) =>
    json(store.listInteractionsPage(project, filters, time_range, limit, offset)),
  exportInteractions: (store, project, { date_gte, date_lt }) => json(store.exportInteractions(project, { start: date_gte, end: date_lt })),
  getInteractionDetail: (store, project, { interaction_id }) => {
    const found = store.interactionDetail(project, interaction_id);
    return found === undefined ? detail(404, `Interaction ${interaction_id} not found`) : json(found);
  },
  addTags: (store, project, body) =>
    store.addTags(project, body) > 0
      ? json(ACCEPTED, 202)
      : json({ detail: [{ loc: ['body', 'metadata'], msg: 'no stored interaction has this end_user and time_start (and input and output, when given)', type: 'no_interaction' }] }, 422),
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

/**
 * A route that validates the body (a GET: its query and path params) with the endpoint's
 * params schema, as the service does, then acts.
 */
function toRoute(endpoint: Endpoint, action: AnyAction, aliases?: Readonly<Record<string, string>>): Route {
  const schema = endpoint.params;
  if (schema === undefined) return { readsBody: false, run: ({ store, project }) => action(store, project) };
  const placeholders = new Set([...endpoint.path.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]));
  const from: ParamsFrom = (name) => (typeof name === 'string' && placeholders.has(name) ? 'path' : 'query');
  return {
    readsBody: endpoint.method !== 'GET',
    run({ store, project, json: sent, idempotencyKey }) {
      const value = unalias(sent, aliases);
      const result = z.safeParse(schema, value);
      if (!result.success) {
        const issues = toIssues(result.error.issues, value);
        return validationError(issues, value, endpoint.method === 'GET' ? (issue) => from(issue.path[0]) : undefined);
      }
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

/** The routes whose path has a `{name}` in it, each as a pattern capturing the names. */
const TEMPLATES: readonly { pattern: RegExp; names: string[]; methods: Readonly<Partial<Record<string, Route>>> }[] = Object.entries(ROUTES)
  .filter(([path]) => path.includes('{'))
  .map(([path, methods]) => {
    const names: string[] = [];
    const source = path
      .split(/(\{[a-z_]+\})/)
      .map((part) => {
        const name = /^\{([a-z_]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return '([^/]+)';
      })
      .join('');
    return { pattern: new RegExp(`^${source}$`), names, methods };
  });

/** The routes of a path, and the values of its `{name}`s when it matched a template. */
export interface FoundRoutes {
  readonly methods: Readonly<Partial<Record<string, Route>>>;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * The routes serving `path`: its own, else those of the template it fills (an
 * interaction's detail by id); `undefined` for a path the service does not have.
 */
export function findRoutes(path: string): FoundRoutes | undefined {
  const exact = Object.hasOwn(ROUTES, path) && !path.includes('{') ? ROUTES[path] : undefined;
  if (exact !== undefined) return { methods: exact, params: {} };
  for (const { pattern, names, methods } of TEMPLATES) {
    const match = pattern.exec(path);
    if (match === null) continue;
    const params: Record<string, string> = {};
    try {
      names.forEach((name, index) => (params[name] = decodeURIComponent(match[index + 1] ?? '')));
    } catch {
      return undefined;
    }
    return { methods, params };
  }
  return undefined;
}

/** Every method some route serves; any other gets 405 on every path. */
export const SERVED_METHODS: readonly string[] = [...new Set(Object.values(ROUTES).flatMap((methods) => Object.keys(methods)))];
