/**
 * `nebuly-client/langchain`: LangChain.js (`@langchain/core` 1) recorded into Nebuly
 * through a callback handler. See docs/integrations.md.
 */
export { NebulyCallbackHandler } from './handler.js';
export { endConversation, type NebulyTarget } from '../target.js';
