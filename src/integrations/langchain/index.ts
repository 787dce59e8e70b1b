/**
 * `nebuly-client/langchain`: LangChain.js (`@langchain/core` 1) recorded into Nebuly
 * through a callback handler. See docs/integrations.md.
 *
 * @example
 * ```ts
 * import { NebulyCallbackHandler } from 'nebuly-client/langchain';
 *
 * await chain.invoke(input, { callbacks: [new NebulyCallbackHandler({ nebuly, endUser: userHash })] });
 * ```
 *
 * @module nebuly-client/langchain
 */
export { NebulyCallbackHandler } from './handler.js';
export { endConversation } from '../interactions.js';
export { currentInteractionId } from '../target.js';
export type { NebulyTarget } from '../target.js';
