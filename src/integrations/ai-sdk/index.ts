/**
 * `nebuly-client/ai-sdk`: the Vercel AI SDK (ai 6) recorded into Nebuly. See
 * docs/integrations.md.
 *
 * - {@link nebulyMiddleware}: for `wrapLanguageModel` (each model call an LLM step) and
 *   `wrapEmbeddingModel` (each embedding call embedding steps);
 * - {@link nebulyTelemetry}: for `experimental_telemetry.integrations` (a whole
 *   `generateText` / `streamText` run with its tool executions, in order).
 *
 * @example
 * ```ts
 * import { generateText, wrapLanguageModel } from 'ai';
 * import { nebulyMiddleware } from 'nebuly-client/ai-sdk';
 *
 * const observed = wrapLanguageModel({ model, middleware: nebulyMiddleware({ nebuly, endUser: userHash }) });
 * await generateText({ model: observed, prompt: 'Hi' });
 * ```
 *
 * @module nebuly-client/ai-sdk
 */
export { nebulyMiddleware, type NebulyMiddleware } from './middleware.js';
export { nebulyTelemetry } from './telemetry.js';
export { endConversation } from '../interactions.js';
export { currentInteractionId } from '../target.js';
export type { NebulyTarget } from '../target.js';
