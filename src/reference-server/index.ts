/**
 * `nebuly-client/reference-server`: the in-repo reference server of the Nebuly API, for
 * tests, demos and local development: the Node server, and everything of
 * `nebuly-client/reference-server/web`. See docs/reference-server.md.
 */
export { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './node.js';
export * from './web.js';
