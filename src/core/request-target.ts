import type { HttpMethod } from './endpoint-paths.js';

/** Where a typed call's params go: the path it asks, and the JSON body it sends (none for a GET). */
export interface RequestTarget {
  /** The endpoint's path, its `{name}`s filled and, for a GET, its query string added. */
  path: string;
  /** The params not in the path, for any method but GET; `undefined` when there are none. */
  json: unknown;
}

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/**
 * Places validated params on the wire: each `{name}` of the path is filled with the
 * param of that name (URI-encoded, so an id cannot reach another path); a GET sends the
 * others as its query string, any other method as its body.
 *
 * @example
 * ```ts
 * requestTarget('GET', '/export/interactions/detail/{interaction_id}', { interaction_id: 'a b' }).path;
 * // '/export/interactions/detail/a%20b'
 * requestTarget('GET', '/export/interactions', { date_gte: '2026-01-01T00:00:00.000Z' }).path;
 * // '/export/interactions?date_gte=2026-01-01T00%3A00%3A00.000Z'
 * ```
 */
export function requestTarget(method: HttpMethod, path: string, params: unknown): RequestTarget {
  if (params === undefined || typeof params !== 'object' || params === null || Array.isArray(params)) {
    return { path, json: params };
  }
  const rest: Record<string, unknown> = { ...(params as Record<string, unknown>) };
  const filled = path.replace(PLACEHOLDER, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (method !== 'GET') return { path: filled, json: filled === path ? params : rest };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(rest)) if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return { path: search === '' ? filled : `${filled}?${search}`, json: undefined };
}
