/**
 * `nebuly-client/reference-server`: the in-repo reference server of the Nebuly API, for
 * tests, demos and local development. See docs/reference-server.md.
 */
export { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './node.js';
export { createReferenceHandler, type ReferenceHandler, type ReferenceHandlerOptions } from './handler.js';
export type { ReferenceState } from './app.js';
export { REFERENCE_DEFAULTS, type ReferenceOptions } from './options.js';
export { ReferenceStore, type DeleteUsersResult, type StoredInteraction, type StoredUser } from './store.js';
export type { TimeRange } from './matching.js';
export { FaultInjector, type Fault, type FaultSpec } from './faults.js';
export { RequestLog, type RecordedRequest, type RequestFilter } from './request-log.js';
export { REFERENCE_PATHS } from './routes.js';
export type { ValidationDetail } from './responses.js';
