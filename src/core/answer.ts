import { APIError, RedirectError } from './errors.js';
import { redactText } from './redact.js';
import type { WireAnswer } from './transport/types.js';

/**
 * The answer with every form of the API key (as is, escaped, base64) taken out of its
 * body and header values: the one place where a response enters the SDK, so that
 * nothing derived from it (an error's message, stack, `body`, `headers`, `requestId`, a
 * log line, a `DeliveryError`) can carry a key that a server or proxy echoed.
 *
 * @example
 * ```ts
 * const answer = redactAnswer(await transport.send(request), apiKey);
 * ```
 */
export function redactAnswer(answer: WireAnswer, secret: string): WireAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) headers[redactText(name, secret)] = redactText(value, secret);
  return { ...answer, headers, text: redactText(answer.text, secret) };
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
 * Whether the answer is, or came through, a redirect: a 3xx, a browser's opaque
 * redirect (status 0), or a redirect a user's `fetch` followed.
 *
 * @example
 * ```ts
 * isRedirect({ status: 308, headers: {}, text: '', redirected: false }); // true
 * ```
 */
export function isRedirect(answer: WireAnswer): boolean {
  return answer.redirected || (answer.status >= 300 && answer.status < 400) || answer.status === 0;
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
 * The SDK error for a final answer that is not success: a {@link RedirectError} for a
 * redirect, else the `APIError` subclass of its status.
 *
 * @example
 * ```ts
 * throw errorOf(answer, { method: 'GET', path, url }, attempt);
 * ```
 */
export function errorOf(answer: WireAnswer, request: { method: string; path: string; url: string }, attempts: number): APIError {
  const headers = new Headers(answer.headers);
  const { method, path, url } = request;
  if (isRedirect(answer)) {
    return new RedirectError(answer.status, targetOf(answer.headers.location, url), headers, method, path, answer.redirected ? 'fetch' : undefined);
  }
  const ErrorClass = APIError.for(answer.status);
  return new ErrorClass(answer.status, parseBody(answer.text), headers, method, path, attempts);
}
