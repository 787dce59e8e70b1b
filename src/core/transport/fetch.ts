import { withinTimeout } from '../attempt.js';
import type { Transport, WireResponse } from './types.js';

/**
 * A response read in full into a {@link WireResponse}. `opaqueredirect` (a browser's
 * response to `redirect: 'manual'`) counts as a redirect.
 *
 * @example
 * ```ts
 * const response = await wireResponseOf(await fetch(url));
 * ```
 */
export async function wireResponseOf(response: Response): Promise<WireResponse> {
  // A response with no body (a 202 from the bulk endpoint may be one) is not read: reading
  // one still makes a stream's worth of objects (~1.3 kB in undici).
  const text = response.body === null ? '' : await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const redirected = response.redirected || response.type === 'opaqueredirect';
  return { status: response.status, headers, text, redirected };
}

/**
 * The transport of runtimes without `node:http`, and of a client given a `fetch`:
 * `fetch(url, init)` with the body as given and `redirect: 'manual'`, so that the
 * platform never follows a redirect (a `fetch` of the user's that follows one anyway is
 * caught by the `redirected` flag).
 *
 * @example
 * ```ts
 * const transport = fetchTransport(globalThis.fetch, 'fetch');
 * ```
 */
export function fetchTransport(fetchImpl: typeof globalThis.fetch, name: 'fetch' | 'custom fetch'): Transport {
  return {
    name,
    fetch: fetchImpl,
    send({ url, method, headers, body, timeoutMs, signal }) {
      return withinTimeout(
        async (attemptSignal) => {
          const init: RequestInit = { method, headers, body: (body ?? null) as BodyInit | null, signal: attemptSignal, redirect: 'manual' };
          return wireResponseOf(await fetchImpl(url, init));
        },
        timeoutMs,
        signal,
      );
    },
  };
}
