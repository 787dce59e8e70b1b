import { APIError, RedirectError } from './errors.js';
import { redactText, type Secrets } from './redact.js';
import type { WireResponse } from './transport/types.js';

/**
 * The response with every form of the API key and the feedback secret (as is, escaped, base64) taken out of its
 * body and header values: the one place where a response enters the SDK, so that
 * nothing derived from it (an error's message, stack, `body`, `headers`, `requestId`, a
 * log line, a `DeliveryError`) can carry a key that a server or proxy echoed.
 *
 * @example
 * ```ts
 * const response = redactResponse(await transport.send(request), apiKey);
 * ```
 */
export function redactResponse(response: WireResponse, secret: Secrets): WireResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[redactText(name, secret)] = redactText(value, secret);
  return { ...response, headers, text: redactText(response.text, secret) };
}

/**
 * A body as the service sent it: parsed JSON, else its text, else `null` when empty.
 *
 * @example
 * ```ts
 * parseBody('{"ok":true}'); // { ok: true }
 * parseBody('');            // null
 * ```
 */
export function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Whether the response is, or came through, a redirect: a 3xx, a browser's opaque
 * redirect (status 0), or a redirect a user's `fetch` followed.
 *
 * @example
 * ```ts
 * isRedirect({ status: 308, headers: {}, text: '', redirected: false }); // true
 * ```
 */
export function isRedirect(response: WireResponse): boolean {
  return response.redirected || (response.status >= 300 && response.status < 400) || response.status === 0;
}

/** Where a redirect points, origin and path only: a query or credentials may hold secrets. */
function targetOf(location: string | undefined, url: string): string | undefined {
  if (location === undefined) return undefined;
  try {
    const target = new URL(location, url);
    return /^https?:$/.test(target.protocol) ? `${target.origin}${target.pathname}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The SDK error for a final response that is not success: a {@link RedirectError} for a
 * redirect, else the `APIError` subclass of its status.
 *
 * @example
 * ```ts
 * throw errorOf(response, { method: 'GET', path, url }, attempt);
 * ```
 */
export function errorOf(response: WireResponse, request: { method: string; path: string; url: string }, attempts: number): APIError {
  const headers = new Headers(response.headers);
  const { method, path, url } = request;
  if (isRedirect(response)) {
    return new RedirectError(response.status, targetOf(response.headers.location, url), headers, method, path, response.redirected ? 'fetch' : undefined);
  }
  const ErrorClass = APIError.for(response.status);
  return new ErrorClass(response.status, parseBody(response.text), headers, method, path, attempts);
}
