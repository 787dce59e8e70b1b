/**
 * `nebuly-client/msw`: request handlers for MSW (Mock Service Worker) that respond as the
 * reference server does, for tests in Node (`setupServer`) and browsers (`setupWorker`).
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'nebuly-client/msw';
 *
 * const server = setupServer(...createHandlers({ apiKeys: { 'test-key': 'test-project' } }).handlers);
 * ```
 *
 * @module nebuly-client/msw
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { REGION_BASE_URLS } from '../core/options.js';
import { createReferenceApp, type ReferenceState } from './app.js';
import type { ReferenceOptions } from './options.js';

/** The base URLs the handlers match by default: both regions of the service. */
export const DEFAULT_MSW_BASE_URLS = [REGION_BASE_URLS.us, REGION_BASE_URLS.eu] as const;

/** Options of {@link createHandlers}. */
export interface ReferenceHandlersOptions extends ReferenceOptions {
  /**
   * The base URL or URLs the handlers respond for; a path in it (`https://proxy.test/nebuly`)
   * is the prefix the API lives under.
   * @default ['https://backend.nebuly.com', 'https://backend.eu.nebuly.com']
   */
  baseUrl?: string | readonly string[] | undefined;
}

/** MSW handlers backed by the reference server, with its data, faults and request log. */
export interface ReferenceHandlers extends ReferenceState {
  /** Pass these to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
  readonly handlers: HttpHandler[];
}

function toBase(url: string): { origin: string; prefix: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`reference server: baseUrl ${JSON.stringify(url)} is not a URL`);
  }
  return { origin: parsed.origin, prefix: parsed.pathname.replace(/\/+$/, '') };
}

/**
 * Creates MSW request handlers that respond as the reference server does, from the same
 * implementation and an in-memory store: every endpoint, API keys mapped to projects, the
 * service's errors, and fault injection (a dropped connection is a network error).
 * Runs in Node (`setupServer`) and in browsers (`setupWorker`).
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'nebuly-client/msw';
 *
 * const reference = createHandlers({ apiKeys: { 'test-key': 'test-project' } });
 * const server = setupServer(...reference.handlers);
 * server.listen();
 * // … new NebulyClient({ apiKey: 'test-key' }) talks to the handlers …
 * expect(reference.store.listInteractions('test-project')).toHaveLength(1);
 * ```
 */
export function createHandlers(options: ReferenceHandlersOptions): ReferenceHandlers {
  const { baseUrl = DEFAULT_MSW_BASE_URLS, ...rest } = options;
  const bases = (typeof baseUrl === 'string' ? [baseUrl] : [...baseUrl]).map(toBase);
  const app = createReferenceApp(rest);
  const handlers = bases.map(({ origin, prefix }) =>
    http.all(`${origin}${prefix}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname.slice(prefix.length);
      const response = await app.handle(request, path);
      return response.type === 'error' ? HttpResponse.error() : response;
    }),
  );
  return { handlers, store: app.store, faults: app.faults, requests: app.requests };
}

export type { ReferenceOptions } from './options.js';
export type { Experiments } from './experiments.js';
export type { ReferenceState } from './app.js';
export type { ReferenceStore } from './store.js';
export type { StoredConversation, StoredFeedback, StoredInteraction, StoredRecord, StoredUser } from './stored.js';
export type { FaultInjector, Fault, FaultSpec } from './faults.js';
export type { RequestLog, RecordedRequest, RequestFilter } from './request-log.js';
