/**
 * The CORS side of the feedback route: which origin may read its answers, and the
 * headers that say so. Only origins listed in `feedbackOrigins` (and the route's own)
 * get `Access-Control-Allow-Origin`; a refused one gets none, so its browser blocks the
 * call, and the handler records nothing for it either.
 */

/** The methods the route answers to, for `Allow` and the preflight. */
export const ALLOWED_METHODS = 'POST, OPTIONS';

/** How long a browser may keep a preflight's answer: 10 minutes. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Whether a request from `origin` may post feedback: none given (not a browser's
 * cross-origin call), the route's own origin, or one listed.
 *
 * @example
 * ```ts
 * originAllowed(request.headers.get('origin'), request.url, ['https://app.example.com']);
 * ```
 */
export function originAllowed(origin: string | null, requestUrl: string, allowed: readonly string[]): boolean {
  if (origin === null) return true;
  if (allowed.includes(origin)) return true;
  try {
    return new URL(requestUrl).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The CORS headers of an answer to `origin`: `Vary: Origin` always (the answer depends on
 * it, and a cache must not hand one origin's to another), and, for an allowed origin that
 * sent one, `Access-Control-Allow-Origin` with it; for a preflight, also the method and
 * header it may use.
 *
 * @example
 * ```ts
 * const headers = corsHeaders('https://app.example.com', true, false);
 * ```
 */
export function corsHeaders(origin: string | null, allowed: boolean, preflight: boolean): Headers {
  const headers = new Headers({ vary: 'Origin', 'cache-control': 'no-store' });
  if (origin === null || !allowed) return headers;
  headers.set('access-control-allow-origin', origin);
  if (preflight) {
    headers.set('access-control-allow-methods', ALLOWED_METHODS);
    headers.set('access-control-allow-headers', 'content-type');
    headers.set('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
  }
  return headers;
}
