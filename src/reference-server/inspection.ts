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
  /** `GET`: `{ conversations: StoredConversation[] }`, the project's interactions by conversation, with late feedback. */
  conversations: '/_reference/conversations',
} as const;

const VIEWS: Readonly<Record<string, (store: ReferenceStore, project: string) => unknown>> = {
  [INSPECTION_PATHS.conversations]: (store, project) => ({ conversations: store.listConversations(project) }),
};

/** Whether `path` is one of the reference's own endpoints. */
export function isInspectionPath(path: string): boolean {
  return Object.hasOwn(VIEWS, path);
}

/** The response of an inspection endpoint to an authorized `GET`. */
export function inspect(store: ReferenceStore, project: string, path: string): Response {
  const view = VIEWS[path];
  return view === undefined ? json({ detail: 'Not Found' }, 404) : json(view(store, project));
}
