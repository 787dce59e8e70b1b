import * as z from 'zod/mini';
import { deleteInteractionsParamsSchema } from '../schemas/filters.js';
import { sendInteractionParamsSchema } from '../schemas/interactions.js';
import { sendConversationParamsSchema } from '../schemas/conversations.js';
import { toIssues } from '../schemas/issues.js';
import { deleteUsersParamsSchema, usersParamsSchema } from '../schemas/users.js';
import { json, validationError } from './responses.js';
import type { ReferenceStore } from './store.js';

/** The paths the reference serves, below the base URL. */
export const REFERENCE_PATHS = {
  interaction: '/event-ingestion/api/v3/events/trace_interaction',
  conversation: '/event-ingestion/api/v2/events/trace_conversation',
  deleteInteractions: '/api/external/projects/delete-interactions',
  eligibleUsers: '/api/external/eligible-users',
  platformUsers: '/api/external/platform-users',
} as const;

/** What an endpoint gets: the store, the caller's project, and the parsed JSON body. */
interface EndpointContext {
  store: ReferenceStore;
  project: string;
  json: unknown;
}

/** One method of one path. */
export interface Endpoint {
  /** Whether the body is read and parsed as JSON before `run`. */
  readonly readsBody: boolean;
  run(context: EndpointContext): Response;
}

/** The ingestion endpoints answer this: the service processes ingestion asynchronously. */
const ACCEPTED = { status: 'accepted' } as const;

function withBody<S extends z.ZodMiniType>(
  schema: S,
  run: (store: ReferenceStore, project: string, body: z.output<S>) => Response,
): Endpoint {
  return {
    readsBody: true,
    run({ store, project, json: value }) {
      const result = z.safeParse(schema, value);
      if (!result.success) return validationError(toIssues(result.error.issues, value), value);
      return run(store, project, result.data);
    },
  };
}

function withoutBody(run: (store: ReferenceStore, project: string) => Response): Endpoint {
  return { readsBody: false, run: ({ store, project }) => run(store, project) };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

const listUsers = withoutBody((store, project) => json({ users: store.listUsers(project) }));

const insertUsers = withBody(usersParamsSchema, (store, project, { users }) =>
  json({ users: store.insertUsers(project, users) }),
);

const updateUsers = withBody(usersParamsSchema, (store, project, { users }) =>
  json({ users: store.updateUsers(project, users) }),
);

/** Every endpoint, by path then method. Each acts on the caller's project alone. */
export const ROUTES: Readonly<Record<string, Readonly<Partial<Record<string, Endpoint>>>>> = {
  [REFERENCE_PATHS.interaction]: {
    POST: withBody(sendInteractionParamsSchema, (store, project, body) => {
      store.addInteraction(project, body);
      return json(ACCEPTED, 202);
    }),
  },
  [REFERENCE_PATHS.conversation]: {
    POST: withBody(sendConversationParamsSchema, (store, project, body) => {
      store.addConversation(project, body);
      return json(ACCEPTED, 202);
    }),
  },
  [REFERENCE_PATHS.deleteInteractions]: {
    POST: withBody(deleteInteractionsParamsSchema, (store, project, { filters, time_range }) => {
      const deleted = store.deleteInteractions(project, filters, time_range);
      return json({ message: `${plural(deleted, 'interaction')} deleted` });
    }),
  },
  [REFERENCE_PATHS.eligibleUsers]: {
    GET: listUsers,
    POST: insertUsers,
    PUT: updateUsers,
    DELETE: withBody(deleteUsersParamsSchema, (store, project, { users }) => {
      const { deleted, notFound } = store.deleteUsers(project, users);
      const ignored = notFound.length === 0 ? '' : `; ${notFound.length} not found, ignored`;
      return json({ message: `${plural(deleted.length, 'user')} deleted${ignored}` });
    }),
  },
  [REFERENCE_PATHS.platformUsers]: {
    GET: listUsers,
    // The spec names POST (update) and GET; the service's API reference adds PUT, which
    // sends (inserts) platform users. Its delete is not described, so none is served.
    PUT: insertUsers,
    POST: updateUsers,
  },
};
