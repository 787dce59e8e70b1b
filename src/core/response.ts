import { APIError, RedirectError } from './errors.js';
import { redactText, secretForms, type Secrets } from './redact.js';
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
  const shortest = shortestForm(secret);
  // Nearly every response holds no form of the key: it is then returned as it came,
  // nothing copied. A text shorter than the shortest form cannot hold one.
  const clean = (text: string) => (text.length < shortest ? text : redactText(text, secret));
  let headers: Record<string, string> | undefined;
  for (const name in response.headers) {
    const value = response.headers[name] as string;
    const cleanName = clean(name);
    const cleanValue = clean(value);
    if (headers === undefined && (cleanName !== name || cleanValue !== value)) {
      headers = {};
      // The headers before this one held nothing: copied as they are.
      for (const before in response.headers) {
        if (before === name) break;
        headers[before] = response.headers[before] as string;
      }
    }
    if (headers !== undefined) headers[cleanName] = cleanValue;
  }
  const text = clean(response.text);
  return headers === undefined && text === response.text ? response : { ...response, headers: headers ?? response.headers, text };
}

/** The last secrets' shortest forms: a client redacts the same one or two on every response. */
let shortestOf: { secret: Secrets; length: number } | undefined;

/**
 * The length of the shortest text that can hold a form of `secret`: its shortest form
 * (the secret itself is one; its JSON-escaped spellings are no shorter). `Infinity` when
 * it has none (a secret too short to redact).
 */
function shortestForm(secret: Secrets): number {
  if (shortestOf?.secret === secret) return shortestOf.length;
  let length = Number.POSITIVE_INFINITY;
  for (const one of typeof secret === 'string' ? [secret] : secret) for (const form of secretForms(one)) length = Math.min(length, form.length);
  shortestOf = { secret, length };
  return length;
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
