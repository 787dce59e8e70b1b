/**
 * `nebuly-client/reference-server`: the in-repo reference server of the Nebuly API, for
 * tests, demos and local development: the Node server, and everything of
 * `nebuly-client/reference-server/web`. See docs/reference-server.md.
 *
 * @example
 * ```ts
 * import { createReferenceServer } from 'nebuly-client/reference-server';
 *
 * const server = await createReferenceServer({ apiKeys: { 'dev-key': 'dev-project' } });
 * const nebuly = new NebulyClient({ apiKey: 'dev-key', baseUrl: server.url });
 * ```
 *
 * @module nebuly-client/reference-server
 */
export { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './node.js';
export * from './web.js';
