import { json } from './responses.js';
import type { ReferenceStore } from './store.js';

/**
 * The reference's own read-only endpoints, beside the service's: what it stored for the
 * caller's project, to see what an integration sent without writing a harness. The
 * service has no such endpoints; the `_reference` prefix keeps them apart.
 *
 * @example
 * ```ts
 * const response = await fetch(`${server.url}${INSPECTION_PATHS.conversations}`, { headers: { authorization: 'Bearer dev-key' } });
 * const { conversations } = await response.json();
 * ```
 */
export const INSPECTION_PATHS = {
  /**
   * `GET`: `{ conversations: StoredConversation[] }`, the project's interactions by
   * conversation, with late feedback; `?conversation_id=` and `?end_user=` keep the
   * conversations with that id or end user.
   */
  conversations: '/_reference/conversations',
} as const;

/** The query parameters that narrow `/_reference/conversations`, each a field of the conversation. */
const CONVERSATION_FILTERS = ['conversation_id', 'end_user'] as const;

const VIEWS: Readonly<Record<string, (store: ReferenceStore, project: string, query: URLSearchParams) => unknown>> = {
  [INSPECTION_PATHS.conversations]: (store, project, query) => ({
    conversations: store
      .listConversations(project)
      .filter((conversation) => CONVERSATION_FILTERS.every((field) => !query.has(field) || query.get(field) === conversation[field])),
  }),
};

/** Whether `path` is one of the reference's own endpoints. */
export function isInspectionPath(path: string): boolean {
  return Object.hasOwn(VIEWS, path);
}

/** The response of an inspection endpoint to an authorized `GET`, narrowed by its `query`. */
export function inspect(store: ReferenceStore, project: string, path: string, query = new URLSearchParams()): Response {
  const view = VIEWS[path];
  return view === undefined ? json({ detail: 'Not Found' }, 404) : json(view(store, project, query));
}
