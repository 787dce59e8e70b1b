/**
 * `nebuly-client/reference-server/web`: the reference server as a web-standard fetch
 * handler, with nothing from `node:`, for Cloudflare Workers (workerd), browsers' service
 * workers, Deno and Bun, and their bundlers. `nebuly-client/reference-server` exports the
 * same, plus the Node server. See docs/reference-server.md.
 *
 * @example
 * ```ts
 * import { createReferenceHandler } from 'nebuly-client/reference-server/web';
 *
 * const reference = createReferenceHandler({ apiKeys: { 'dev-key': 'dev-project' } });
 * export default { fetch: (request: Request) => reference.fetch(request) };
 * ```
 *
 * @module nebuly-client/reference-server/web
 */
export { createReferenceHandler, type ReferenceHandler, type ReferenceHandlerOptions } from './handler.js';
export type { ReferenceState } from './app.js';
export { REFERENCE_DEFAULTS, type ReferenceOptions } from './options.js';
export type { Experiments } from './experiments.js';
export { ReferenceStore, type DeleteUsersResult } from './store.js';
export type { StoredConversation, StoredFeedback, StoredInteraction, StoredRecord, StoredUser } from './stored.js';
export { INSPECTION_PATHS } from './inspection.js';
export { IDEMPOTENCY_WINDOW_MS } from './idempotency.js';
export type { TimeRange } from './matching.js';
export { FaultInjector, type Fault, type FaultSpec } from './faults.js';
export { RequestLog, type RecordedRequest, type RequestFilter } from './request-log.js';
export { REFERENCE_PATHS } from './routes.js';
export type { ValidationDetail } from './responses.js';
export type { UnlinkedFeedback } from './feedback-link.js';
