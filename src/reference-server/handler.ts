import { createReferenceApp, type ReferenceState } from './app.js';
import { detail } from './responses.js';
import type { ReferenceOptions } from './options.js';

/** Options of {@link createReferenceHandler}. */
export interface ReferenceHandlerOptions extends ReferenceOptions {
  /**
   * The path the API is mounted under, when it is not the root: with `'/nebuly'`, every
   * endpoint's path is below `/nebuly`. Requests outside it are
   * given 404 and, not being the API's, are not recorded in `requests`.
   * @default ''
   */
  basePath?: string | undefined;
}

/** The reference server as a web-standard handler, with its data, faults and request log. */
export interface ReferenceHandler extends ReferenceState {
  /**
   * Responds to one request. A dropped-connection fault responds with `Response.error()` (status
   * 0): runtimes treat it as a network error.
   */
  fetch(request: Request): Promise<Response>;
}

function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * Creates the reference server as a plain `(request: Request) => Promise<Response>`
 * handler over an in-memory store, for any runtime with the Fetch API: `Deno.serve`,
 * `Bun.serve`, a Cloudflare Worker, a service worker. Same implementation as
 * `createReferenceServer` (Node) and `createHandlers` (MSW).
 *
 * @example
 * ```ts
 * import { createReferenceHandler } from 'nebuly-client/reference-server';
 *
 * const reference = createReferenceHandler({ apiKeys: { 'dev-key': 'dev-project' } });
 * Deno.serve({ port: 8787 }, reference.fetch);
 * ```
 */
export function createReferenceHandler(options: ReferenceHandlerOptions): ReferenceHandler {
  const { basePath = '', ...rest } = options;
  const prefix = normalizeBasePath(basePath);
  const app = createReferenceApp(rest);
  return {
    store: app.store,
    faults: app.faults,
    requests: app.requests,
    async fetch(request: Request): Promise<Response> {
      const { pathname } = new URL(request.url);
      if (prefix !== '' && pathname !== prefix && !pathname.startsWith(`${prefix}/`)) {
        return detail(404, 'Not Found');
      }
      return app.handle(request, pathname.slice(prefix.length) || '/');
    },
  };
}
